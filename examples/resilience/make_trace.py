"""Writes stencil.txt: a time-independent trace (SimGrid's format, every rank in one file) of 4 ranks iterating 100
times over 0.2 Gflop of computation (0.2 s on cluster:4's 1 Gf hosts), a halo exchange with both ring neighbours
(sendRecv of 1000 doubles) and an allreduce of one double (a convergence test): 20 s of work, a consistent cut for
replay's checkpoints at the end of every allreduce."""

RANKS, ITERATIONS = 4, 100


def rank_actions(rank):
    right, left = (rank + 1) % RANKS, (rank - 1) % RANKS
    yield "init"
    for _ in range(ITERATIONS):
        yield "compute 2e8"
        yield f"sendRecv 1000 {right} 1000 {left}"
        yield f"sendRecv 1000 {left} 1000 {right}"
        yield "allreduce 1 1"
    yield "finalize"


if __name__ == "__main__":
    with open("stencil.txt", "w") as out:
        for rank in range(RANKS):
            out.writelines(f"{rank} {action}\n" for action in rank_actions(rank))
