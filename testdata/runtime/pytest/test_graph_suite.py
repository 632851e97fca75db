# CUDA graph tests as a project's own suite has them. scripts/gpu-tests.sh runs
# this file under `graphcheck run --format junit -- python3 -m pytest`: every
# finding must be a failure of the test that made it (the `# expect:` on its
# def line), and the other tests' cases must stay clean.
import torch

N = 1 << 16


def three_graphs_one_pool(x, pool):
    """g1 reads g0's output c and frees it during its capture; g2 reuses c's block."""
    g0, g1, g2 = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
    kw = {"pool": pool} if pool is not None else {}
    with torch.cuda.graph(g0, **kw):
        c = x * 2
    with torch.cuda.graph(g1, **kw):
        y1 = c + 1
        del c
    with torch.cuda.graph(g2, **kw):
        y2 = x * 5
    torch.cuda.synchronize()
    return g0, g1, g2, y1, y2


def test_pool_handoff_out_of_order():  # expect: replay-input-overwritten
    x = torch.randn(N, device="cuda")
    g0, g1, g2, y1, _ = three_graphs_one_pool(x, torch.cuda.graph_pool_handle())
    g0.replay()
    g2.replay()
    g1.replay()
    # The bug is silent: the test computes and passes with wrong numbers.
    assert torch.isfinite(y1).all()


def test_pool_handoff_in_order():
    x = torch.randn(N, device="cuda")
    g0, g1, g2, y1, _ = three_graphs_one_pool(x, torch.cuda.graph_pool_handle())
    g0.replay()
    g1.replay()
    g2.replay()
    assert torch.allclose(y1, x * 2 + 1)


def test_private_pools_any_order():
    x = torch.randn(N, device="cuda")
    g0, g1, g2, y1, _ = three_graphs_one_pool(x, None)
    g0.replay()
    g2.replay()
    g1.replay()
    assert torch.allclose(y1, x * 2 + 1)


def test_output_kept_across_calls():  # expect: read-after-overwrite
    m = torch.nn.Linear(32, 32).cuda()
    gm = torch.cuda.make_graphed_callables(m, (torch.randn(4, 32, device="cuda"),))
    with torch.no_grad():
        a = gm(torch.ones(4, 32, device="cuda"))
        b = gm(torch.zeros(4, 32, device="cuda"))
        assert (a - b).abs().max().item() == 0  # a holds b's values


def test_output_cloned():
    m = torch.nn.Linear(32, 32).cuda()
    gm = torch.cuda.make_graphed_callables(m, (torch.randn(4, 32, device="cuda"),))
    with torch.no_grad():
        a = gm(torch.ones(4, 32, device="cuda")).clone()
        b = gm(torch.zeros(4, 32, device="cuda"))
        assert (a - b).abs().max().item() > 0
