struct Big { float *p[3]; int n; double d[20]; };
__global__ void kern(float *a, int n, Big b, const double *c) { if (n) a[0] = b.p[0][0] + c[0] + b.d[3]; }
__global__ void other(char c, short s, float *out) { out[0] = c + s; }
