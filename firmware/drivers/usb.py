# The board's USB serial console (MicroPython's REPL port, what mpremote talks to) as a port
# for controller/protocol.py: reads and writes that never wait.
#
#   port = Port()
#   port.read(buf, 1) -> 1 when a byte was read into buf[0], else 0
#   port.write(buf, n) -> n when buf[:n] went out, else 0 (nothing written)
#
# Why writes are whole 64-byte packets: MicroPython's USB console (TinyUSB's CDC class) queues
# output in a 256-byte FIFO, and its write waits, up to 500 ms, until everything fits while a
# listener is attached. poll() only says that the FIFO has room for one byte. The FIFO is
# emptied 64 bytes (one USB packet) at a time, so as long as every write is exactly 64 bytes the
# room in it is always a multiple of 64: "room" means room for a whole write, and a write never
# waits. A listener that stops reading fills the FIFO, poll() then says no room, and the
# protocol keeps (or drops) its lines itself. The firmware's own prints (faults) are the only
# other writes; one of them while the listener does not read may cost one wait.
# Reading: poll() says whether a byte waits; stdin's read takes exactly the bytes asked for.
# Ctrl-C (0x03) never reaches here: MicroPython turns it into KeyboardInterrupt, so mpremote
# and tools/deploy.py interrupt the firmware exactly as without the protocol.
# Off the board (the unix port, CPython in host tests) the console is the terminal or a test's
# pipe, not a USB port: there Port reads and writes nothing (the simulator passes its own).
import sys
import select


class Port:
    def __init__(self):
        self.on = sys.platform == "rp2"
        if not self.on:
            return
        self._inp = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._pi = select.poll()
        self._pi.register(sys.stdin, select.POLLIN)
        self._po = select.poll()
        self._po.register(sys.stdout, select.POLLOUT)

    def read(self, buf, n):
        if not self.on:
            return 0
        for _, ev in self._pi.ipoll(0):
            if ev & select.POLLIN:
                return self._inp.readinto(buf, n)
        return 0

    def write(self, buf, n):
        if not self.on:
            return 0
        for _, ev in self._po.ipoll(0):
            if ev & select.POLLOUT:
                self._out.write(buf, 0, n)
                return n
        return 0
