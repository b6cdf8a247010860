"""``yili-kg build`` on a terminal: a progress bar over every phase, the reading and what follows (the
graph, the files, the store), and it stays on the terminal when done."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

from conftest import shared_path


def test_build_shows_every_phase_on_a_terminal_and_leaves_the_bars(tmp_path):
    small = shared_path("corpus", "kanripo", "KR1d0026", "KR1d0026_010.txt")  # 覲禮, the shortest chapter
    excerpt = shared_path("corpus", "yili_shuzhu_yanli_excerpt.txt")
    master, slave = pty.openpty()
    # a terminal of 100 columns (a new pseudo-terminal has none, and tqdm draws nothing in zero columns)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    cli = os.path.join(os.path.dirname(sys.executable), "yili-kg")
    with subprocess.Popen(
        [cli, "build", str(excerpt), str(small), "--out", str(tmp_path / "out"), "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=slave,
    ) as proc:
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the terminal is closed once the process is done
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=300) == 0
    os.close(master)
    terminal = b"".join(chunks).decode("utf-8", "replace")
    for phase in ("reading", "building the graph", "writing graph.trig, graph.ttl", "writing steps, toasts", "writing the store"):
        assert f"yili-kg: {phase}" in terminal, phase
    # left on the terminal when done: the last redraw of each bar is complete, and not erased (no \x1b[A clearing)
    assert "2/2" in terminal and "4/4" in terminal
    last = terminal.rstrip().rsplit("\r", 1)[-1]
    assert "4/4" in last
