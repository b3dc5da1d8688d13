# move_path.py - gdb script for move_path.sh: counting breakpoints that never
# stop the server, tallied per thread, so the sweeper's and the delivery
# worker's calls are told apart from the request's.
import collections
import gdb

counts = collections.Counter()


class Count(gdb.Breakpoint):
    def __init__(self, name):
        super().__init__(name, internal=True)
        self.label = name

    def stop(self):
        counts[(gdb.selected_thread().num, self.label)] += 1
        return False


def arm(names):
    for name in names.split():
        Count(name)


def report(label):
    threads = {t for (t, n) in counts if n == "apply_move"}
    mine = collections.Counter()
    other = collections.Counter()
    for (t, n), c in counts.items():
        (mine if t in threads else other)[n] += c
    print("%s, the request's thread: %s" % (label, " ".join("%s=%d" % kv for kv in sorted(mine.items()))))
    print("%s, other threads meanwhile: %s" % (label, " ".join("%s=%d" % kv for kv in sorted(other.items()))))


def stop_when(path):
    """Stop the server once `path` exists (the move has been answered). Not
    with SIGINT, gdb's own interrupt: the server waits for SIGINT in
    sigtimedwait, which takes it before gdb sees it, and shuts down. SIGSTOP
    cannot be waited for, so gdb always sees it, and does not pass it on."""
    import os
    import signal
    import threading
    import time

    pid = gdb.selected_inferior().pid

    def watch():
        while not os.path.exists(path):
            time.sleep(0.05)
        os.kill(pid, signal.SIGSTOP)

    threading.Thread(target=watch, daemon=True).start()
