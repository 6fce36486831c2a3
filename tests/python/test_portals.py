"""Portals 4 programs (tests/portals/) under the BXI NIC model: single transfers in each payload mode against the
model's equations (docs/bxi.md), a retransmission, the flow-control limit, and the specification's semantics."""

from __future__ import annotations

import json
import os
import re

import pytest

from conftest import repo_path
from test_online import mpisim

SOURCES = repo_path("tests", "portals")
PROGRAMS = ["transfer_timing", "semantics", "mpi_pingpong", "mpi_phases", "mpi_portals_contention", "mpi_ni", "mpi_overflow"]

# Round numbers, so that every date below is computed by hand: PCIe 100 ns + bytes / 10 GB/s (the shared link, at
# 20 GB/s, is not the bottleneck of a lone transfer), commands of 100 B (10 ns), NIC stages 200 ns (TX) and 300 ns
# (RX), headers of 100 B, a fence of 50 ns; two hosts whose route crosses two 1 GB/s links of 1 us: Lw = 2 us,
# Bw = 1 GB/s (1 ns per byte). No wtime delay: the clock reads cost nothing.
PLATFORM = "cluster:2,bw=1GBps,lat=1us"
PARAMS = ["--param", "pci-latency=100ns", "--param", "pci-bandwidth=10GBps", "--param", "pci-shared-bandwidth=20GBps",
          "--param", "command-size=100B", "--param", "nic-tx-delay=200ns", "--param", "nic-rx-delay=300ns",
          "--param", "header-size=100B", "--param", "pio-fence=50ns"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    probe = mpisim("cc", "-show", "probe.c")
    if probe.returncode != 0:
        pytest.skip(probe.stderr.strip().splitlines()[-1])
    out = tmp_path_factory.mktemp("portals")
    paths = {}
    for name in PROGRAMS:
        paths[name] = str(out / name)
        done = mpisim("cc", "-O1", os.path.join(SOURCES, name + ".c"), "-o", paths[name])
        assert done.returncode == 0, done.stderr
    return paths


def run_timing(built, *args, extra=(), status=0):
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "bxi", "--no-compute-time", "--wtime-delay",
                  "0", "--quiet", *PARAMS, *extra, built["transfer_timing"], *args)
    assert done.returncode == status, done.stdout + done.stderr
    events = {}
    for line in done.stdout.splitlines():
        m = re.match(r"(initiator|target) (PTL_EVENT_\w+) ([\d.]+)(?: (\w+))?", line)
        if m:
            events.setdefault(m.group(2), []).append((float(m.group(3)), m.group(4)))
        m = re.match(r"returned ([\d.]+)", line)
        if m:
            events.setdefault("returned", []).append((float(m.group(1)), None))
    assert "data wrong" not in done.stdout
    return events


def date(events, name, index=0):
    return events[name][index][0]


# Shared terms (microseconds): the command's PCIe write, the NIC stages, the ACK's way back.
COMMAND = 0.100 + 100 / 10e3  # 0.110
TX, RX = 0.200, 0.300
ACK_BACK = TX + 2.0 + 0.100 + RX  # target TX, wire (latency + 100 B header), initiator RX


def test_inline_put(built):
    # 8 B with match bits: inline. Returned after the command write; SEND at transmission (<= 64 B); the wire
    # carries 8 + 100 B; PUT after the target's RX; the ACK comes back through the target's TX.
    e = run_timing(built, "put", "8")
    assert date(e, "returned") == pytest.approx(COMMAND, abs=2e-3)
    assert date(e, "PTL_EVENT_SEND") == pytest.approx(COMMAND + TX, abs=2e-3)  # 0.310
    put = COMMAND + TX + 2.0 + 0.108 + RX  # 2.718
    assert date(e, "PTL_EVENT_PUT") == pytest.approx(put, abs=2e-3)
    assert date(e, "PTL_EVENT_ACK") == pytest.approx(put + ACK_BACK, abs=2e-3)  # 5.318


def test_pio_put(built):
    # 300 B: PIO. The CPU writes 292 B (PCIe 100 ns + 29.2 ns), a fence (50 ns), then the command (110 ns): 289.2 ns.
    # SEND comes with the ACK (> 64 B).
    e = run_timing(built, "put", "300")
    issue = 0.1292 + 0.050 + COMMAND
    assert date(e, "returned") == pytest.approx(issue, abs=2e-3)
    put = issue + TX + 2.0 + 0.400 + RX  # 3.1892
    assert date(e, "PTL_EVENT_PUT") == pytest.approx(put, abs=2e-3)
    assert date(e, "PTL_EVENT_ACK") == pytest.approx(put + ACK_BACK, abs=2e-3)
    assert date(e, "PTL_EVENT_SEND") == pytest.approx(put + ACK_BACK, abs=2e-3)


def test_dma_put(built):
    # 4096 B: DMA. TX reads the payload (100 ns + 409.6 ns, done at 0.8196) and starts the wire once the first 512 B
    # PCIe packet is in (fill: 100 ns + 51.2 ns); the wire takes 2 us + 4196 ns; the target's RX adds its own fill
    # (the last packet's write, 51.2 ns) before the PUT event.
    e = run_timing(built, "put", "4096")
    wire_start = COMMAND + TX + 0.1512
    put = wire_start + 2.0 + 4.196 + RX + 0.0512  # 7.0084
    assert date(e, "PTL_EVENT_PUT") == pytest.approx(put, abs=2e-3)
    assert date(e, "PTL_EVENT_ACK") == pytest.approx(put + ACK_BACK, abs=2e-3)  # 9.6084


def test_get_reply_by_dma(built):
    # A Get is a command and a header-only request; its response is always a DMA (here of 4096 B) from the target.
    e = run_timing(built, "get", "4096")
    get = COMMAND + TX + 2.0 + 0.100 + RX  # 2.710
    assert date(e, "PTL_EVENT_GET") == pytest.approx(get, abs=2e-3)
    reply = get + TX + 0.1512 + 2.0 + 4.196 + RX + 0.0512  # 9.6084
    assert date(e, "PTL_EVENT_REPLY") == pytest.approx(reply, abs=2e-3)


def test_64_bytes_boundary(built):
    # SEND fires at transmission up to 64 B (E2E context), with the ACK from 65 B.
    at64 = run_timing(built, "put", "64")
    at65 = run_timing(built, "put", "65")
    assert date(at64, "PTL_EVENT_SEND") < date(at64, "PTL_EVENT_PUT")
    assert date(at65, "PTL_EVENT_SEND") == pytest.approx(date(at65, "PTL_EVENT_ACK"), abs=2e-3)


def test_retransmission_after_link_failure(built):
    # Node 1's cable is off until 3 us: the first transmission (on the wire at 0.310) is lost; the E2E unit sends it
    # again 10 us after it left (10.310): TX 200 ns, wire 2.108 us, RX 300 ns -> PUT at 12.918; ACK 2.6 us later.
    failure = ["--param", "link-down-node=1", "--param", "link-down-start=0s", "--param", "link-down-end=3us",
               "--param", "retry-timeout=10us"]
    e = run_timing(built, "put", "8", extra=failure)
    put = COMMAND + TX + 10.0 + TX + 2.108 + RX
    assert date(e, "PTL_EVENT_PUT") == pytest.approx(put, abs=2e-3)
    assert date(e, "PTL_EVENT_ACK") == pytest.approx(put + ACK_BACK, abs=2e-3)
    # No retry allowed: the ACK reports the failure when the timeout expires (and the target, which never gets the
    # PUT it waits for, ends in a deadlock: status 124).
    e = run_timing(built, "put", "8", extra=failure + ["--param", "max-retries=0", "--param", "link-down-end=1s"],
                   status=124)
    assert e["PTL_EVENT_ACK"][0][1] == "PTL_NI_UNDELIVERABLE"
    assert date(e, "PTL_EVENT_ACK") == pytest.approx(COMMAND + TX + 10.0, abs=2e-3)


def test_flow_control_limit(built):
    # Two Puts back to back. Without a limit the second is processed by TX once the first's 108 B have left (0.418),
    # leaves at 0.618, is whole at the target at 2.726 and PUT at 3.026, which is after the first's ACK left the
    # target's TX (2.718 + 200 ns + 100 ns on the cable): its ACK follows at 3.026 + 2.6 = 5.626. With one request in
    # flight per process pair it waits for the first ACK (5.318), then TX, wire, RX, and the ACK back.
    free = run_timing(built, "put", "8", "2")
    assert date(free, "PTL_EVENT_PUT", 1) == pytest.approx(0.418 + TX + 2.108 + RX, abs=2e-3)
    assert date(free, "PTL_EVENT_ACK", 1) == pytest.approx(0.418 + TX + 2.108 + RX + ACK_BACK, abs=2e-3)
    limited = run_timing(built, "put", "8", "2", extra=["--param", "max-inflight-process-pair=1"])
    second_put = 5.318 + TX + 2.108 + RX
    assert date(limited, "PTL_EVENT_PUT", 1) == pytest.approx(second_put, abs=2e-3)
    assert date(limited, "PTL_EVENT_ACK", 1) == pytest.approx(second_put + ACK_BACK, abs=2e-3)


def test_quick_acks(built):
    # The ACK event is raised by the target's RX, at the PUT's date: no message goes back.
    e = run_timing(built, "put", "8", extra=["--param", "quick-acks=yes"])
    assert date(e, "PTL_EVENT_ACK") == pytest.approx(date(e, "PTL_EVENT_PUT"), abs=2e-3)


def test_semantics(built):
    done = mpisim("run", "-np", "2", "--platform", "cluster:2", "--model", "bxi", "--quiet", built["semantics"])
    lines = done.stdout.splitlines()
    failed = [line for line in lines if "FAILED" in line]
    assert done.returncode == 0 and not failed, done.stdout + done.stderr
    checked = {line.split()[0] for line in lines}
    for name in ["match_ignore_bits", "first_match_wins", "no_match", "target_invalid", "overflow_event",
                 "put_overflow", "use_once_second", "auto_unlink", "manage_local", "ct_bytes", "eq_dropped",
                 "invalid_md", "invalid_eq", "no_truncate_beyond", "truncate", "fetch_atomic", "atomic_result", "md_in_use",
                 "md_released_after_ack", "le_on_matching_ni", "le_put", "le_event", "le_unlink", "flowctrl_disables",
                 "flowctrl_stays_disabled", "pt_disabled_event", "pt_enable"]:
        assert name in checked


def test_models_lists_bxi():
    done = mpisim("models")
    assert done.returncode == 0
    assert "bxi" in done.stdout
    for name in ["pci-bandwidth", "pci-shared-bandwidth", "retry-timeout", "max-retries", "quick-acks",
                 "max-inflight-node-pair", "corruption-rate"]:
        assert name in done.stdout


def test_benchmark_example_prints_its_readme(tmp_path):
    """examples/portals/README.md: the command it quotes prints the lines it quotes."""
    import shlex

    folder = repo_path("examples", "portals")
    with open(os.path.join(folder, "README.md")) as stream:
        text = stream.read()
    command = next(line.strip() for line in text.splitlines() if line.strip().startswith("mpisim run"))
    expected = text.split("```\n", 2)[1]
    program = str(tmp_path / "ptl_bench")
    built = mpisim("cc", "-O2", os.path.join(folder, "ptl_bench.c"), "-o", program)
    assert built.returncode == 0, built.stderr
    arguments = shlex.split(command)[1:]
    arguments[arguments.index("./ptl_bench")] = program
    done = mpisim(*arguments)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


def test_commands_not_modelled(built):
    # model-pci-commands=no: the CPU's command write is free, the call returns at once; the rest is unchanged.
    e = run_timing(built, "put", "8", extra=["--param", "model-pci-commands=no"])
    assert date(e, "returned") == pytest.approx(0, abs=2e-3)
    assert date(e, "PTL_EVENT_PUT") == pytest.approx(TX + 2.108 + RX, abs=2e-3)


def test_send_of_a_put_without_ack_waits_for_the_bxi_ack(built):
    # A 300 B Put without ACK: SEND waits for the E2E acknowledgement, a BXI ACK (a 100 B header, sent by the
    # target's receive side, not its TX): PUT + 0.1 + 2 us. Without E2E there is no BXI ACK: SEND at the PUT's date.
    e = run_timing(built, "put", "300", "1", "noack")
    assert date(e, "PTL_EVENT_SEND") == pytest.approx(date(e, "PTL_EVENT_PUT") + 0.1 + 2.0, abs=2e-3)
    e = run_timing(built, "put", "300", "1", "noack", extra=["--param", "e2e=no"])
    assert date(e, "PTL_EVENT_SEND") == pytest.approx(date(e, "PTL_EVENT_PUT"), abs=2e-3)


def test_corruption_is_recovered_and_seeded(built):
    # 30 % of the messages dropped on the wire: every Put is still acknowledged (E2E retransmits after 10 us), later
    # than without losses; the same seed gives the same dates, another seed other dates.
    lossy = ["--param", "corruption-rate=0.3", "--param", "retry-timeout=10us", "--param", "max-retries=20"]
    clean = run_timing(built, "put", "8", "20")
    first = run_timing(built, "put", "8", "20", extra=lossy + ["--param", "corruption-seed=3"])
    again = run_timing(built, "put", "8", "20", extra=lossy + ["--param", "corruption-seed=3"])
    other = run_timing(built, "put", "8", "20", extra=lossy + ["--param", "corruption-seed=4"])
    assert len(first["PTL_EVENT_ACK"]) == 20 and all(fail == "PTL_NI_OK" for _, fail in first["PTL_EVENT_ACK"])
    assert first == again and first != other
    assert first["PTL_EVENT_ACK"][-1][0] > clean["PTL_EVENT_ACK"][-1][0] + 10


# MPI over Portals (--model bxi): the MPI transport's Portals operations, timed by the equations of docs/bxi.md with
# the parameters above (rendezvous-threshold: 2048 B by default).
def run_pingpong(built, size, model="bxi", more=()):
    extra = [*PARAMS, *more] if model == "bxi" else []
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", model, "--no-compute-time", "--wtime-delay",
                  "0", "--quiet", *extra, built["mpi_pingpong"], str(size))
    assert done.returncode == 0, done.stdout + done.stderr
    dates = {m.group(1): float(m.group(2)) for m in re.finditer(r"^t (\w+) ([\d.]+)$", done.stdout, re.M)}
    checks = sorted(line for line in done.stdout.splitlines() if not line.startswith("t "))
    return dates, checks


def test_mpi_eager_inline_pingpong(built):
    # 8 B: one eager Put, inline. The send completes at SEND (transmission: <= 64 B), the receive at the PUT
    # (0.110 + 0.2 + 2.108 + 0.3 = 2.718); the pong is the same path back.
    dates, checks = run_pingpong(built, 8)
    assert dates["send"] == pytest.approx(COMMAND + TX, abs=2e-3)  # 0.310
    ping = COMMAND + TX + 2.0 + 0.108 + RX  # 2.718
    assert dates["ping"] == pytest.approx(ping, abs=2e-3)
    assert dates["pong"] == pytest.approx(2 * ping, abs=2e-3)  # 5.436
    assert checks == ["rank 0: 8 bytes back, data right", "rank 1: 8 bytes, data right"]


def test_mpi_eager_pio_pingpong(built):
    # 300 B: an eager Put by PIO: 292 B written (0.1292), a fence (0.05), the command (0.110); the SEND comes with the
    # ACK (> 64 B), so the send completes once the Portals ACK is back.
    dates, _ = run_pingpong(built, 300)
    put = 0.1292 + 0.05 + COMMAND + TX + 2.0 + 0.400 + RX  # 3.1892
    assert dates["ping"] == pytest.approx(put, abs=2e-3)
    assert dates["send"] == pytest.approx(put + ACK_BACK, abs=2e-3)  # 5.7892
    assert dates["pong"] == pytest.approx(2 * put, abs=2e-3)


def test_mpi_rendezvous_pingpong(built):
    # 4096 B >= rendezvous-threshold: a header Put (inline, no payload) reaches the receiver's NIC at
    # 0.110 + 0.2 + 2.1 + 0.3 = 2.710; the receive was posted, so the receiver's NIC issues a Get then: its command
    # (0.110), TX (0.2), the 100 B request on the wire (2.1), the sender's RX (0.3): GET at 5.420, when the send
    # completes. The REPLY is a DMA of 4096 B: TX 0.2, max(pci 0.5096, fill 0.1512 + 4.196) + 2 + RX 0.3 + the last
    # packet's write 0.0512: 5.420 + 6.8984 = 12.3184.
    dates, checks = run_pingpong(built, 4096)
    header = COMMAND + TX + 2.1 + RX  # 2.710
    get = header + COMMAND + TX + 2.1 + RX  # 5.420
    reply = get + TX + (0.1512 + 4.196) + 2.0 + RX + 0.0512  # 12.3184
    assert dates["send"] == pytest.approx(get, abs=2e-3)
    assert dates["ping"] == pytest.approx(reply, abs=2e-3)
    assert dates["pong"] == pytest.approx(2 * reply, abs=2e-3)
    assert checks == ["rank 0: 4096 bytes back, data right", "rank 1: 4096 bytes, data right"]


def test_mpi_rendezvous_header_lost_is_retransmitted(built):
    # 4096 B by rendezvous with node 1's cable off until 3 us: the header Put, on the wire at 0.310, is lost (nothing
    # else is on the wire before 3 us). The E2E unit sends it again retry-timeout (10 us) after it left, through the TX
    # stage again (0.2): it reaches the receiver 10.2 us late, at 12.910, and the whole rendezvous (Get, REPLY) and the
    # pong, sent after 3 us, follow 10.2 us later than in test_mpi_rendezvous_pingpong.
    failure = ["--param", "link-down-node=1", "--param", "link-down-start=0s", "--param", "link-down-end=3us",
               "--param", "retry-timeout=10us"]
    dates, checks = run_pingpong(built, 4096, more=failure)
    header = COMMAND + TX + 10.0 + TX + 2.1 + RX  # 12.910
    get = header + COMMAND + TX + 2.1 + RX  # 15.620
    reply = get + TX + (0.1512 + 4.196) + 2.0 + RX + 0.0512  # 22.5184
    assert dates["send"] == pytest.approx(get, abs=2e-3)
    assert dates["ping"] == pytest.approx(reply, abs=2e-3)
    assert dates["pong"] == pytest.approx(reply + 12.3184, abs=2e-3)
    assert checks == ["rank 0: 4096 bytes back, data right", "rank 1: 4096 bytes, data right"]


def run_contention(built, *args):
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "bxi", "--no-compute-time", "--wtime-delay",
                  "0", "--quiet", *PARAMS, built["mpi_portals_contention"], *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^t (\w+) ([\d.]+)", done.stdout, re.M)}, done.stdout


def test_mpi_and_portals_share_one_nic(built):
    # One NIC model per node for both: the 8 B PtlPut's command is written by 0.110 and its transmit stage is busy
    # until its last byte left (TX 0.2 + 108 B on the wire: 0.418). MPI_Send's command, written from 0.110 to 0.220,
    # waits for that stage: SEND at 0.418 + 0.2 = 0.618 (MPI_Send returns), PUT at 0.618 + 2.108 + 0.3 = 3.026.
    # (With a NIC model of its own, as before: SEND at 0.420, PUT at 2.828.)
    dates, out = run_contention(built)
    assert dates["ptlput"] == pytest.approx(COMMAND, abs=2e-3)
    assert dates["put"] == pytest.approx(COMMAND + TX + 2.108 + RX, abs=2e-3)  # 2.718
    assert dates["send"] == pytest.approx(0.418 + TX, abs=2e-3)  # 0.618
    assert dates["mpi"] == pytest.approx(0.618 + 2.108 + RX, abs=2e-3)  # 3.026
    assert "data right" in out


def test_ssend_header_leaves_at_the_post(built):
    # An 8 B MPI_Ssend whose receive is posted at 10 us: its header (inline, 0 B) is at the receiver's NIC at 2.710,
    # unexpected; the receive matches it at 10 and Gets: command 0.110, TX 0.2, 100 B request 2.1, RX 0.3: GET at the
    # sender at 12.710, when the Ssend completes; the REPLY, a DMA of 8 B: 12.710 + TX 0.2 + max(pci 0.1008, fill
    # 0.1008 + 0.108) + 2 + RX 0.3 + 0.0008 = 15.4196. (Started at the match, as before: 15.420 and 18.1296.)
    dates, out = run_contention(built, "ssend", "10")
    assert dates["ssend"] == pytest.approx(12.710, abs=2e-3)
    assert dates["received"] == pytest.approx(15.4196, abs=2e-3)
    assert "data right" in out


@pytest.mark.parametrize("size", [8, 300, 4096, 100000])
def test_mpi_program_unchanged_under_smpi_and_bxi(built, size):
    _, under_bxi = run_pingpong(built, size)
    _, under_smpi = run_pingpong(built, size, model="smpi")
    assert under_bxi == under_smpi
    assert "data wrong" not in " ".join(under_bxi)


# Switching models (MPI_Pcontrol with --pcontrol-models, mpisim_use_model): the first ping-pong under bxi takes its
# hand-computed 5.436 us, the second under smpi what it takes in a run under smpi alone.
def run_phases(built, *args, status=0, table="1=bxi,0=smpi"):
    return mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "smpi", "--pcontrol-models", table,
                  "--no-compute-time", "--wtime-delay", "0", *PARAMS, built["mpi_phases"], *args)


def test_pcontrol_switches_models(built):
    done = run_phases(built)
    assert done.returncode == 0, done.stdout + done.stderr
    durations = dict(line.split() for line in done.stdout.splitlines())
    smpi_alone, _ = run_pingpong(built, 8, model="smpi")
    assert float(durations["first"]) == pytest.approx(5.436, abs=2e-3)
    assert float(durations["second"]) == pytest.approx(smpi_alone["pong"], abs=2e-3)
    assert smpi_alone["pong"] != pytest.approx(5.436, abs=0.1)  # the two models differ here
    # The switch back happens at rank 1's MPI_Pcontrol(0), once its eager send's SEND has come: 2.718 + 0.310.
    spent = re.search(r"Time under each model: smpi ([\d.]+) s bxi ([\d.]+) s", done.stderr)
    assert spent, done.stderr
    total = float(re.search(r"Simulated time: ([\d.]+) s", done.stderr).group(1))
    assert float(spent.group(2)) == pytest.approx(3.028e-6, abs=2e-9)
    assert float(spent.group(1)) + float(spent.group(2)) == pytest.approx(total, abs=2e-9)


def test_unknown_model_names_are_bad_input(built):
    done = run_phases(built, table="1=no-such-model")
    assert done.returncode == 2 and "no-such-model" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    done = run_phases(built, "bad")
    assert done.returncode == 2 and "no-such-model" in done.stderr, done.stderr
    done = run_phases(built, table="1:bxi")
    assert done.returncode == 2 and "LEVEL=MODEL" in done.stderr


# MPI programs of tests/online run unchanged under --model bxi: the same lines as under smpi (sorted: ranks print in an
# order that depends on timing). p2p_modes checks that a buffered rendezvous holds its buffer room until delivered.
@pytest.mark.parametrize("program", ["p2p_modes", "mprobe_cancel", "collectives", "persistent", "ibsend_cancel"])
def test_online_programs_unchanged_under_bxi(tmp_path, program):
    binary = str(tmp_path / program)
    done = mpisim("cc", "-O1", repo_path("tests", "online", program + ".c"), "-o", binary)
    if done.returncode != 0:
        pytest.skip(done.stderr.strip().splitlines()[-1])
    outputs = {}
    for model in ("smpi", "bxi"):
        run = mpisim("run", "-np", "4", "--platform", "cluster:4", "--model", model, "--no-compute-time", "--quiet",
                     binary)
        assert run.returncode == 0, run.stdout + run.stderr
        outputs[model] = sorted(run.stdout.splitlines())
    assert outputs["bxi"] == outputs["smpi"] and outputs["bxi"]


def test_switch_by_size(built):
    # Under smpi with --switch size<4KiB=bxi, the 8 B ping-pong takes bxi's hand-computed 5.436 us.
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "smpi", "--switch", "size<4KiB=bxi",
                  "--no-compute-time", "--wtime-delay", "0", "--quiet", *PARAMS, built["mpi_pingpong"], "8")
    assert done.returncode == 0, done.stderr
    assert float(re.search(r"^t pong ([\d.]+)$", done.stdout, re.M).group(1)) == pytest.approx(5.436, abs=2e-3)
    bad = mpisim("run", "-np", "2", "--platform", PLATFORM, "--switch", "size>4KiB=bxi", built["mpi_pingpong"])
    assert bad.returncode == 2 and "size<SIZE=MODEL" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr


# --switch in replay, by the date a send is posted: rank 0 computes 10 us (10 000 flops at 1 Gf), then sends 8 B.
# Under fluid the receive ends at 10 + 2 + 0.008 = 12.008 us; under bxi at 10 + 2.718 = 12.718 us (the eager PUT).
# The time under each model is the window's part of the run.
@pytest.mark.parametrize("rule, end, bxi_time", [
    ("time<5us=bxi", 12.008, 5.0),           # posted at 10 us: out of the window
    ("5us<=time<15us=bxi", 12.718, 7.718),   # in it: bxi from 5 us to the end
    ("time>=10us=bxi", 12.718, 2.718),       # the window starts at the post itself
    ("size<4KiB=bxi", 12.718, 0.0),          # by size: no time under bxi is counted
])
def test_replay_switch(tmp_path, rule, end, bxi_time):
    trace = tmp_path / "trace.txt"
    trace.write_text("0 init\n0 compute 10000\n0 send 1 0 8\n0 finalize\n1 init\n1 recv 0 0 8\n1 finalize\n")
    done = mpisim("replay", str(trace), "--platform", PLATFORM, "--model", "fluid", "--switch", rule, *PARAMS,
                  "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["simulated_time"] * 1e6 == pytest.approx(end, abs=1e-6)
    assert result["time_under_models"]["bxi"] * 1e6 == pytest.approx(bxi_time, abs=1e-6)
    assert sum(result["time_under_models"].values()) * 1e6 == pytest.approx(end, abs=1e-6)
    bad = mpisim("replay", str(trace), "--platform", PLATFORM, "--switch", "time<1s=no-such-model")
    assert bad.returncode == 2 and "no-such-model" in bad.stderr


# Portals-level tracing: a 4096 B Put (DMA) under the worked example's parameters. Each step of docs/bxi.md's table is
# a row of --portals-csv, dated by hand (microseconds): the command's write (0 to 0.110); the DMA read (from the
# transmit stage's end, 0.310, for 100 ns + 409.6 ns); the Put on the wire from the first packet's read (0.4612) to
# its last byte at the target (+ 4.196 + 2); the target's background write of the payload from the PUT (7.0084, no
# latency: 409.6 ns); the Portals ACK from the target's transmit stage (7.2084) to the initiator (+ 0.1 + 2). (The
# initiator's E2E ACK of it leaves at the ACK event, 9.6084, as the program ends: a step is written once its last byte
# has left, which the run does not reach.) The --timeline file has the same steps on NIC tracks, and `mpisim gantt`
# draws the ranks and the NICs of the run.
def test_portals_csv_and_nic_tracks(built, tmp_path):
    csv, trace, picture = tmp_path / "nic.csv", tmp_path / "run.json", tmp_path / "both.png"
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "bxi", "--no-compute-time", "--wtime-delay",
                  "0", "--quiet", *PARAMS, "--portals-csv", str(csv), "--timeline", str(trace),
                  built["transfer_timing"], "put", "4096")
    assert done.returncode == 0, done.stderr
    lines = csv.read_text().splitlines()
    assert lines[0] == "type,nid,peer_nid,process,peer_process,bytes,start,end,operation"
    rows = [line.split(",") for line in lines[1:]]
    steps = {(r[0], int(r[1]), int(r[2])): (float(r[5]), float(r[6]) * 1e6, float(r[7]) * 1e6) for r in rows}
    expected = {
        ("PCI_COMMAND", 0, 0): (100, 0.0, 0.110),
        ("PCI_DMA_PAYLOAD", 0, 0): (4096, 0.310, 0.8196),
        ("PTL_PUT", 0, 1): (4196, 0.4612, 6.6572),
        ("PCI_PAYLOAD_WRITE", 1, 1): (4096, 7.0084, 7.418),
        ("PTL_ACK", 1, 0): (100, 7.2084, 9.3084),
    }
    for key, (size, start, end) in expected.items():
        assert key in steps, (key, lines)
        assert steps[key][0] == size, key
        assert steps[key][1] == pytest.approx(start, abs=1e-6), key
        assert steps[key][2] == pytest.approx(end, abs=1e-6), key
    assert len(rows) == len(expected) and all(r[3] == "0" and r[4] == "1" for r in rows)  # rank 0's Put to rank 1

    from mpisim.timeline import read_timeline
    timeline = read_timeline(str(trace))
    assert sorted(timeline.nics["operation"].astype(str).unique()) == sorted({k[0] for k in expected})
    put = timeline.nics[timeline.nics["operation"] == "PTL_PUT"].iloc[0]
    assert (put["rank"], put["peer"]) == (0, 1) and put["start"] * 1e6 == pytest.approx(0.4612, abs=1e-3)  # whole ns
    assert set(timeline.calls["rank"]) == {0, 1}  # the ranks' tracks keep only the ranks' calls
    drawn = mpisim("gantt", str(trace), "-o", str(picture))
    assert drawn.returncode == 0 and picture.stat().st_size > 0, drawn.stderr
    from mpisim.timeline import read_portals_csv
    from_csv = read_portals_csv(str(csv)).calls
    assert sorted(from_csv["operation"].astype(str)) == sorted(k[0] for k in expected)
    drawn = mpisim("gantt", str(trace), str(csv), "-o", str(tmp_path / "two.png"))
    assert drawn.returncode == 0, drawn.stderr


# examples/osu/osu_pt2pt.c under bxi with the worked example's parameters: half a round trip of an eager ping-pong is
# one PUT date, COMMAND + TX + 2 us + (S + 100 B) / 1 GB/s + RX: 2.711 us for 1 B, 2.718 us for 8 B.
def test_osu_latency_example(tmp_path):
    binary = str(tmp_path / "osu_pt2pt")
    done = mpisim("cc", "-O2", repo_path("examples", "osu", "osu_pt2pt.c"), "-o", binary)
    if done.returncode != 0:
        pytest.skip(done.stderr.strip().splitlines()[-1])
    run = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "bxi", *PARAMS, "--no-compute-time",
                 "--wtime-delay", "0", "--quiet", binary, "latency", "8", "50")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "# latency: size us"
    latency = {int(size): float(us) for size, us in (line.split() for line in lines[1:])}
    assert sorted(latency) == [1, 2, 4, 8]
    for size, us in latency.items():
        assert us == pytest.approx(COMMAND + TX + 2.0 + (size + 100) / 1e3 + RX, abs=2e-3), size


# Replay under bxi draws the NIC tracks too: the 8 B send posted at 10 us has its command written from 10 to 10.110
# us, and is on the wire from 10.310 to 10.310 + 0.108 + 2 = 12.418 us (an eager Put, inline).
def test_replay_nic_tracks(tmp_path):
    trace, timeline_file = tmp_path / "trace.txt", tmp_path / "run.json"
    trace.write_text("0 init\n0 compute 10000\n0 send 1 0 8\n0 finalize\n1 init\n1 recv 0 0 8\n1 finalize\n")
    done = mpisim("replay", str(trace), "--platform", PLATFORM, "--model", "bxi", *PARAMS, "--timeline",
                  str(timeline_file))
    assert done.returncode == 0, done.stderr
    from mpisim.timeline import read_timeline
    nics = read_timeline(str(timeline_file)).nics
    steps = {str(r.operation): (r.rank, r.peer, r.start * 1e6, r.end * 1e6) for r in nics.itertuples()}
    assert steps["PCI_COMMAND"] == pytest.approx((0, 0, 10.0, 10.110), abs=1e-3)
    assert steps["PTL_PUT"] == pytest.approx((0, 1, 10.310, 12.418), abs=1e-3)


# MPI's entries as Portals objects (docs/bxi.md, "MPI over Portals"): at MPI_Init under --model bxi, MPI's transport
# opens each rank's matching, logical NI and its portal table entry (the table's last, 63, PTL_PT_FLOWCTRL).
@pytest.mark.parametrize("model", ["bxi", "smpi"])
def test_program_sees_mpis_ni(built, model):
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", model, "--no-compute-time", "--quiet",
                  built["mpi_ni"])
    assert done.returncode == 0, done.stdout + done.stderr
    lines = sorted(done.stdout.splitlines())
    if model == "bxi":
        # The program's PtlNIInit is its first (PTL_OK) and gets MPI's handle; its second, PTL_IGNORED, the same NI
        # and limits; MPI's index is in use; PTL_PT_ANY gives the program index 0.
        head = "mpi ni: PTL_OK same handle, PTL_IGNORED, same limits, pt PTL_PT_IN_USE, own pt 0"
    else:  # MPI not over Portals: no MPI NI, the program's own
        head = "mpi ni: PTL_NO_INIT other handle, PTL_IGNORED, same limits, pt -, own pt 0"
    assert lines == [head, "rank 0: data right", "rank 1: data right"]


# MPI's overflow list (docs/bxi.md, "MPI over Portals"): a message no posted receive takes lands in an overflow buffer
# at its PUT; the receive copies it out at overflow-copy-bandwidth (here 1 GB/s: 1 ns per byte). One buffer of 4096 B
# with min_free = rendezvous-threshold (2048 B): it holds 1000 B messages while 2048 B or more is left, so the third
# unlinks it, and it is appended again once its last message has been received.
OVERFLOW = ["--param", "overflow-copy-bandwidth=1GBps", "--param", "overflow-buffers=1", "--param",
            "overflow-buffer-size=4096"]


def run_overflow(built, *args, ranks=2, status=0):
    done = mpisim("run", "-np", str(ranks), "--platform", f"cluster:{ranks},bw=1GBps,lat=1us", "--model", "bxi",
                  "--no-compute-time", "--wtime-delay", "0", "--quiet", *PARAMS, *OVERFLOW, built["mpi_overflow"],
                  *args)
    assert done.returncode == status, done.stdout + done.stderr
    dates = {m.group(1): float(m.group(2)) for m in re.finditer(r"^t (\w+) ([\d.]+)", done.stdout, re.M)}
    return dates, done


def test_unexpected_eager_message_is_copied_out_of_the_overflow_buffer(built):
    # 8 B inline: at rank 1's NIC at 2.718 (test_mpi_eager_inline_pingpong), no receive posted: into the overflow
    # buffer. The receive posted at 10 us finds it there and copies it out: 10 + 8 B / 1 GB/s = 10.008.
    dates, done = run_overflow(built, "8", "1", "10")
    assert dates["r0m0"] == pytest.approx(10.008, abs=2e-3)
    assert "rank 1: data right" in done.stdout


def test_receive_posted_before_takes_the_message_at_its_put(built):
    # Posted at 0: its ME is on the priority list when the PUT comes, 2.718; no copy.
    dates, _ = run_overflow(built, "8", "1", "0")
    assert dates["r0m0"] == pytest.approx(COMMAND + TX + 2.108 + RX, abs=2e-3)


@pytest.mark.parametrize("receive_at, dates", [(10, (10.008, 10.016)), (0, (2.718, 3.718))])
def test_any_source_takes_messages_in_their_order_at_the_nic(built, receive_at, dates):
    # Ranks 1 and 2 send 8 B to rank 0 at 0 and 1 us: at rank 0's NIC at 2.718 and 3.718. Receives from
    # MPI_ANY_SOURCE posted at 10 us take them from the overflow list in that order (8 ns of copy each, one after the
    # other); posted at 0, each takes one at its PUT.
    got, done = run_overflow(built, "any", str(receive_at), ranks=3)
    assert (got["any0"], got["any1"]) == pytest.approx(dates, abs=2e-3)
    assert re.search(r"^t any0 \S+ from 1$", done.stdout, re.M) and re.search(r"^t any1 \S+ from 2$", done.stdout,
                                                                              re.M)
    assert "rank 0: data right" in done.stdout


def test_overflow_buffer_unlinked_when_full_is_appended_again(built):
    # Round 1: three 1000 B messages fill the buffer (1096 B left < 2048: unlinked); received from 100 us, a copy of
    # 1 us each: 101, 102, 103; the last one frees it and MPI appends it again. Round 2 (rank 0 sends after rank 1's
    # answer) lands there again, received from 200 us.
    dates, done = run_overflow(built, "1000", "3", "100", "2")
    for round_, start in ((0, 100), (1, 200)):
        for i in range(3):
            assert dates[f"r{round_}m{i}"] == pytest.approx(start + i + 1, abs=2e-3)
    assert "rank 1: data right" in done.stdout


def test_overflow_buffers_running_out_end_the_run(built):
    # A fourth 1000 B message finds no overflow buffer linked: the portal table entry would be disabled. mpisim does
    # not model MPI's recovery: the run ends with one report naming the cause and the parameters to raise.
    # The report's first line gives the cause: the receiver, its list, the call that sent the message; nothing before.
    _, done = run_overflow(built, "1000", "4", "1000", status=1)
    first, *rest = done.stderr.splitlines()
    assert re.fullmatch(r"mpisim: rank 1: overflow list exhausted \(1 buffer of 4096 B, all full of unexpected "
                        r"messages no receive has taken\) at rank 0's MPI_Send \(tag 3, 1000 B, on MPI_COMM_WORLD\), "
                        r"simulated time \S+ s", first), done.stderr
    assert rest == ["  rank 1's portal table entry would be disabled (PTL_NI_PT_DISABLED), and mpisim does not model "
                    "MPI's recovery: raise --param overflow-buffers or --param overflow-buffer-size (docs/bxi.md)"]
    assert "t r0m" not in done.stdout


@pytest.mark.parametrize("param, message", [
    ("overflow-buffer-size=1000", "overflow-buffer-size must be at least rendezvous-threshold (2048 B)"),
    ("overflow-buffers=0", "overflow-buffers must be a whole number from 1 to 1000000 (got 0"),
    ("overflow-buffers=2.5", "overflow-buffers must be a whole number from 1 to 1000000 (got 2.5"),
    ("overflow-copy-bandwidth=0", "overflow-copy-bandwidth must be above 0"),
])
def test_bad_overflow_parameters_are_bad_input(built, param, message):
    done = mpisim("run", "-np", "2", "--platform", PLATFORM, "--model", "bxi", "--param", param,
                  built["mpi_overflow"], "8", "1", "1")
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_overflow_buffers_running_out_in_replay(tmp_path):
    # The same limit in replay: four 1000 B messages before rank 1 receives (it computes first), one buffer of 4096 B.
    trace = tmp_path / "trace.txt"
    lines = ["0 init", "1 init", *["0 send 1 0 1000"] * 4, "1 compute 1000000", *["1 recv 0 0 1000"] * 4,
             "0 finalize", "1 finalize"]
    trace.write_text("\n".join(lines) + "\n")
    base = ["replay", str(trace), "--platform", "cluster:2", "--model", "bxi", "--param", "overflow-buffer-size=4096"]
    done = mpisim(*base, "--param", "overflow-buffers=1")
    assert done.returncode == 1, done.stdout + done.stderr
    # No MPI call in a trace: the message's sender and tag say which line sent it.
    assert done.stderr.startswith("mpisim: rank 1: overflow list exhausted (1 buffer of 4096 B, all full of unexpected "
                                  "messages no receive has taken) at rank 0's message (tag 0, 1000 B, on "), done.stderr
    assert mpisim(*base, "--param", "overflow-buffers=2").returncode == 0  # the fourth lands in the second buffer
