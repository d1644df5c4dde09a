# SSD1306 driver against a model of the panel (vboard.ssd1306_panel), which decodes the I2C
# bytes on its own: what matters is the picture a player sees.

import vboard

machine = vboard.install()

from vboard.ssd1306_panel import Panel  # noqa: E402
from drivers.ssd1306 import SSD1306, RETRY_MS  # noqa: E402
from drivers.ticks import ticks_add, ticks_ms  # noqa: E402
import config as cfg  # noqa: E402

RUNTIMES = ("cpython", "micropython")
MICROPYTHON_ONLY = ("test_show_allocates_nothing", "test_update_allocates_nothing")   # heap figures: MicroPython only


def make(flip=False):
    vboard.reset()
    panel = Panel()
    machine.i2c_devices[cfg.OLED_ADDR] = panel
    i2c = machine.I2C(cfg.I2C_ID, sda=machine.Pin(cfg.I2C_SDA_PIN),
                      scl=machine.Pin(cfg.I2C_SCL_PIN), freq=cfg.I2C_FREQ)
    oled = SSD1306(i2c, cfg.OLED_ADDR, 128, 64, flip)
    return oled, panel, i2c


def test_init_turns_the_panel_on_with_a_blank_screen():
    oled, panel, i2c = make()
    assert panel.errors == []
    assert i2c.writes[0][1][:2] == b"\x00\xae"      # commands, display off first
    assert panel.commands[-1] == (0xAF,)             # display on last, after RAM was cleared
    assert panel.on and panel.charge_pump
    assert panel.mux == 63 and panel.addr_mode == 0
    assert panel.seg_remap and panel.com_reverse     # upright orientation
    assert (0xDA, 0x12) in panel.commands            # COM pins for 64 rows
    assert panel.data_bytes == 1024
    assert panel.ram == bytearray(1024)
    assert all(addr == cfg.OLED_ADDR for addr, _ in i2c.writes)


def test_show_sends_the_whole_buffer_in_one_data_write():
    oled, panel, i2c = make()
    n = len(i2c.writes)
    oled.show()
    new = i2c.writes[n:]
    assert len(new) == 2
    assert new[0][1] == bytes((0x00, 0x21, 0, 127, 0x22, 0, 7))   # window = whole screen
    assert new[1][1][0] == 0x40 and len(new[1][1]) == 1025
    assert panel.data_bytes == 2048


def test_drawn_pixels_appear_where_drawn():
    oled, panel, i2c = make()
    oled.fill(0)
    for x, y in ((0, 0), (127, 0), (0, 63), (127, 63), (5, 10), (64, 31)):
        oled.pixel(x, y, 1)
    oled.fill_rect(100, 40, 6, 9, 1)
    oled.text("Go", 8, 48, 1)
    assert oled.pixel(5, 10) == 1 and oled.pixel(6, 10) == 0
    oled.show()
    for y in range(64):
        for x in range(128):
            assert panel.seen(x, y) == oled.pixel(x, y), (x, y)
    assert panel.seen(127, 63) == 1 and panel.seen(126, 63) == 0


def test_flip_rotates_the_picture_180_degrees():
    oled, panel, i2c = make(flip=True)
    assert not panel.seg_remap and not panel.com_reverse
    oled.pixel(0, 0, 1)
    oled.hline(10, 5, 20, 1)
    oled.show()
    for y in range(64):
        for x in range(128):
            assert panel.seen(127 - x, 63 - y) == oled.pixel(x, y), (x, y)
    oled.flip(False)                                 # back upright, buffer re-sent
    assert panel.seen(0, 0) == 1 and panel.seen(15, 5) == 1 and panel.seen(127, 63) == 0


def test_contrast_invert_and_power():
    oled, panel, i2c = make()
    oled.contrast(10)
    assert panel.contrast == 10
    oled.contrast(999)
    assert panel.contrast == 255
    oled.invert(True)
    assert panel.inverse and panel.seen(3, 3) == 1
    oled.invert(False)
    oled.poweroff()
    assert not panel.on
    oled.poweron()
    assert panel.on
    assert panel.errors == []


def test_missing_display_is_reported_not_raised_and_retried_later():
    vboard.reset()
    machine.i2c_devices.clear()
    i2c = machine.I2C(0)
    oled = SSD1306(i2c)                          # the board must boot without its display
    assert not oled.ok and "0x3c not answering" in oled.error, oled.error
    n = len(i2c.writes)
    oled.text("Hello", 0, 0, 1)                  # drawing still works on the buffer
    assert oled.show() is False
    assert len(i2c.writes) == n                  # no retry before RETRY_MS: the loop is not held up
    panel = Panel()
    machine.i2c_devices[0x3C] = panel            # plugged in again
    oled._retry = ticks_add(ticks_ms(), -RETRY_MS)
    assert oled.show() is True and oled.ok
    assert panel.on and any(panel.ram) and panel.data_bytes == 1024   # "Hello" arrived


def test_show_allocates_nothing():
    oled, panel, i2c = make()
    machine.record = False
    oled.text("Barragoon", 0, 0, 1)
    grow, total = vboard.heap_bytes(lambda i: oled.show(), 200)
    assert grow == 0 and total == 0, (grow, total)
    grow, total = vboard.heap_bytes(lambda i: oled.contrast(i & 0xFF), 200)
    assert grow == 0 and total == 0, (grow, total)


def windows(writes):
    """(first column, last column, page) of every address window in these I2C writes."""
    return [(d[2], d[3], d[5]) for _, d in writes if d[:2] == b"\x00\x21"]


def test_update_sends_only_the_segments_that_changed_a_few_per_call():
    oled, panel, i2c = make()
    oled.text("Hi", 40, 16, 1)                   # columns 40..55 of page 2: one segment
    oled.pixel(127, 63, 1)                       # the last segment of the last page
    n = len(i2c.writes)
    assert oled.update(2) is True
    assert len(i2c.writes) == n                  # nothing was marked as changed yet
    oled.refresh()
    data = panel.data_bytes
    assert oled.update(1) is True
    assert windows(i2c.writes[n:]) == [(32, 63, 2)]
    assert panel.data_bytes - data == 32
    assert panel.seen(127, 63) == 0              # not sent yet: one segment per call
    assert oled.update(1) is True
    assert windows(i2c.writes[n:])[1:] == [(96, 127, 7)]
    n = len(i2c.writes)
    assert oled.update(5) is True and len(i2c.writes) == n     # all sent: nothing more
    for y in range(64):
        for x in range(128):
            assert panel.seen(x, y) == oled.pixel(x, y), (x, y)
    assert panel.errors == []


def test_a_whole_new_screen_arrives_over_several_updates():
    oled, panel, i2c = make(flip=True)
    oled.fill(1)
    oled.text("Brown to move", 0, 30, 0)
    oled.refresh()
    calls = 0
    while True:
        n = len(i2c.writes)
        oled.update(2)
        if len(i2c.writes) == n:
            break
        assert len(windows(i2c.writes[n:])) <= 2
        calls += 1
    assert calls == 16                           # 32 segments, 2 per call
    for y in range(64):
        for x in range(128):
            assert panel.seen(127 - x, 63 - y) == oled.pixel(x, y), (x, y)


def test_update_on_a_missing_display_fails_and_recovers_like_show():
    oled, panel, i2c = make()
    del machine.i2c_devices[cfg.OLED_ADDR]       # unplugged
    oled.text("Gone", 0, 0, 1)
    oled.refresh()
    assert oled.update(2) is False and not oled.ok
    n = len(i2c.writes)
    assert oled.update(2) is False and len(i2c.writes) == n   # no retry before RETRY_MS
    machine.i2c_devices[cfg.OLED_ADDR] = panel
    oled._retry = ticks_add(ticks_ms(), -RETRY_MS)
    assert oled.update(2) is True and oled.ok
    for x in range(30):
        for y in range(8):
            assert panel.seen(x, y) == oled.pixel(x, y), (x, y)


def test_update_allocates_nothing():
    oled, panel, i2c = make()
    machine.record = False

    def change(i):
        oled.fill_rect(0, 0, 128, 64, i & 1)
        oled.refresh()
        for _ in range(17):
            oled.update(2)
    grow, total = vboard.heap_bytes(change, 20)
    assert grow == 0 and total == 0, (grow, total)
