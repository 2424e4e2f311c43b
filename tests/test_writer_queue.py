"""Writers on one SQLite file are served first come, first served (issue 14, item 5): the queue
of `flock`s in `jdr.store.writers` wakes exactly the next writer, and a writer that dies lets the
next one go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from jdr.store.writers import Queue


def _ticket(path: Path) -> int:
    text = path.read_text().strip() if path.exists() else ""
    return int(text) if text else 0


def _wait_for(condition: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_writers_are_served_in_the_order_they_came(tmp_path: Path) -> None:
    lock = tmp_path / "jdr.db.lock"
    served: list[int] = []

    def writer(number: int) -> None:
        with Queue(lock):
            served.append(number)

    threads = []
    with Queue(lock):  # held: every writer below queues behind it, one after the other
        for number in range(1, 6):
            before = _ticket(lock)
            thread = threading.Thread(target=writer, args=(number,))
            thread.start()
            threads.append(thread)
            _wait_for(lambda before=before: _ticket(lock) > before)  # it took its ticket
        time.sleep(0.05)
        assert served == []  # nobody passed the holder
    for thread in threads:
        thread.join(timeout=10)
    assert served == [1, 2, 3, 4, 5]
    assert [p.name for p in (tmp_path / "jdr.db.lock.d").iterdir()] == ["6"]  # no files pile up


def test_a_writer_that_dies_holding_the_lock_lets_the_next_one_go(tmp_path: Path) -> None:
    lock = tmp_path / "jdr.db.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from jdr.store.writers import Queue\n"
            f"with Queue(Path({str(lock)!r})):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    got: list[float] = []

    def writer() -> None:
        with Queue(lock):
            got.append(time.monotonic())

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.1)
    assert got == []  # waiting behind the live holder
    killed = time.monotonic()
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=10)
    holder.stdout.close()
    thread.join(timeout=10)
    assert got and got[0] - killed < 5.0


def test_the_queue_files_are_private(tmp_path: Path) -> None:
    lock = tmp_path / "jdr.db.lock"
    old = os.umask(0)
    try:
        with Queue(lock):
            pass
    finally:
        os.umask(old)
    assert lock.stat().st_mode & 0o077 == 0
    folder = tmp_path / "jdr.db.lock.d"
    assert folder.stat().st_mode & 0o077 == 0
    assert all(p.stat().st_mode & 0o077 == 0 for p in folder.iterdir())
