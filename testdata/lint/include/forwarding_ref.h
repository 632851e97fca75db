// A library's non-owning callable reference, as c10::function_ref is: its
// operator() only forwards to what it was made from.
#pragma once
#pragma GCC system_header

template <class Sig> class ForwardingRef;
template <class R, class... Args> class ForwardingRef<R(Args...)> {
public:
  ForwardingRef(R (*Fn)(Args...)) : Target(Fn) {}
  R operator()(Args... A) const { return Target(A...); }

private:
  R (*Target)(Args...);
};
