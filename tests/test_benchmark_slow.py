"""The slow-link, slow-phone and memory benchmarks' own arithmetic: the shared link, the duty cycle, the goals."""

import os
import sys

import pytest

from support import ROOT

sys.path.append(str(ROOT / "benchmarks"))  # after tests/, whose engines.py the benchmarks share

import memory  # noqa: E402
import peers  # noqa: E402
import slow_link  # noqa: E402
import slow_phone  # noqa: E402


def test_the_link_sends_bytes_one_after_another_at_its_bandwidth():
    link = slow_link.Link(8_000, latency=0.040)  # 1,000 bytes per second
    assert link.reserve(500, now=10.0) == pytest.approx(10.5)
    # A second answer handed over at the same moment shares the link: it waits for the first one's bytes.
    assert link.reserve(500, now=10.0) == pytest.approx(11.0)
    # Once the link has been idle, bytes start when they are handed over.
    assert link.reserve(1000, now=20.0) == pytest.approx(21.0)


def test_the_link_writes_each_chunk_once_the_link_has_carried_it():
    link = slow_link.Link(8 * slow_link.CHUNK, latency=0.0)  # one chunk per second
    clock = [0.0]
    written = []
    link.send(lambda chunk: written.append((clock[0], len(chunk))), b"x" * (2 * slow_link.CHUNK + 10),
              clock=lambda: clock[0], sleep=lambda seconds: clock.__setitem__(0, clock[0] + seconds))
    assert [size for _, size in written] == [slow_link.CHUNK, slow_link.CHUNK, 10]
    assert [when for when, _ in written] == pytest.approx([1.0, 2.0, 2.0 + 10 / slow_link.CHUNK])


def test_the_slow_link_goal_adds_the_bytes_time_to_a_bare_start():
    assert slow_link.ideal_ms(250_000, 2e6, bare_ms=1500) == pytest.approx(2500)


def test_a_cpu_four_times_slower_runs_a_quarter_of_each_period():
    running, stopped = slow_phone.duty(4, period=0.020)
    assert running == pytest.approx(0.005)
    assert stopped == pytest.approx(0.015)


def test_the_process_walk_finds_this_process_parent_and_no_renderer_under_it():
    assert slow_phone.parent(os.getpid()) == os.getppid()
    assert slow_phone.renderers(os.getpid()) == []


def test_anonymous_memory_is_read_for_live_processes_and_gone_ones_count_nothing():
    mine = memory.rss_anon([os.getpid()])
    assert mine > 1_000_000
    assert memory.rss_anon([os.getpid(), 2 ** 22 + 12345]) == mine


def test_the_goals_compare_ours_with_the_fastest_peer():
    results = {"ours": {"load_cold": [900, 1000, 1100], "idle_warm": [30, 40, 50], "bytes_warm": [2048, 4096, 6144],
                        "cold_marks": [{"course-load-began": 100}, {"course-load-began": 200}, {}]},
               "bare main": {"load_cold": [1200]}, "bare worker": {"load_cold": [800]}}
    text = peers.goals(results)
    assert "fastest peer (bare worker) = 1.25" in text
    # counted from the click, in the visits that marked it: 900 - 100 and 1000 - 200, median 800, over 800
    assert "counted from its click (150 ms after navigation): 1.00" in text
    assert "40 ms" in text
    assert "4.0 KB" in text
