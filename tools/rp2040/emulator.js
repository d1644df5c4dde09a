// The Barragoon board on an emulated Raspberry Pi Pico: rp2040js runs the stock MicroPython
// firmware, and this file models what is wired to its pins (config.py): the reed / hall sensor
// matrix answering each row drive, the buttons or encoder, an SSD1306 on I2C, the WS2812 chain
// (decoded from the LED pin's edges, bit-banged or sent by PIO, whose state machines the bench
// clocks from the simulated clock), plus the QSPI flash's erase and program (littlefs on
// emulated flash), resets, BOOTSEL mode (machine.bootloader(): the chip stops until a UF2 is
// loaded or the power comes back) and, as an option, the XIP flash cache.
//
// Driven by tools/rp2040/pico.py over stdin/stdout, one JSON object per line each way. Every
// command gets exactly one reply {"ok": true, ...} or {"ok": false, "error": "..."}; before
// the reply come the events that happened while it ran ({"ev": ...}). Time is simulated: the
// clock advances by executed cycles at 125 MHz (and jumps while the core sleeps in WFI/WFE).
//
//   init     {rom, firmware, flash?, board, xip_miss_cycles?}
//                                              load the boot ROM and UF2, power on; with
//                                              xip_miss_cycles the XIP cache is modelled
//   firmware {path}                            a UF2 written into flash as the boot ROM's
//                                              drive does (power off or in BOOTSEL mode)
//   run      {until_ms, stop_on?}              run until simulated time, or serial text seen
//   serial   {hex}                             bytes from the host to the board's USB CDC
//   usb_host {reading}                         the host stops reading the board's USB CDC
//                                              (false) or reads again, what it missed first
//   squares  {occ}                             63 chars "0"/"1": what stands on each square
//   button   {index, down}                     contact 0..2 (up/A, down/B, ok/push)
//   encoder  {detents, ms_per_detent}          turn: + clockwise, - counter-clockwise
//   oled     {present, fail_after?}            the display answers or not
//   power    {on}                              power cut (off) or power on (rebuilds the chip)
//   cut      {at, partial}                     cut the power when flash operation number `at`
//                                              starts (partial: the half of it that got done)
//   flash_save {path, k?, partial?}            write the storage area to a file (at op k)
//   flash_load {path}                          replace the storage area (power must be off)
//   xip                                        the cache model's hits and misses so far
//   scans {clear?} / busy {clear?}             matrix scan starts / loop steps (GP25 high)
//   probe {clear?}                             the engine's slices (GP26 high)
//   cpu {clear?}                               where the core's time went (ns): interrupts
//                                              (handler mode), the engine (GP26 high), the
//                                              rest of the loop steps (GP25 high), the rest
//                                              of thread mode, asleep (WFI/WFE)
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC, GPIOPinState, ConsoleLogger, LogLevel } from 'rp2040js';

const NS_PER_CYCLE = 8; // 125 MHz
const FLASH_XIP = 0x10000000;
const FLASH_XIP_END = 0x14000000;
const STORAGE_OFFSET = 0xa0000; // MicroPython v1.28 RPI_PICO: littlefs2 from here...
const STORAGE_SIZE = 352 * 4096; // ...352 blocks of 4 KB
// W25Q16-class flash: the core waits in the boot ROM (interrupts off) this long.
const ERASE_NS_PER_4K = 45e6;
const ERASE_NS_PER_64K = 150e6;
const PROGRAM_NS_PER_PAGE = 0.7e6;
const BKPT_ERASE = 0xbe01;
const BKPT_PROGRAM = 0xbe02;
const BKPT_BOOTSEL = 0xbe03;
// WS2812: a high pulse longer than this is a 1 bit (T0H about 0.4 us, T1H about 0.8 us);
// a low line for longer than the reset time ends a frame.
const WS_ONE_NS = 600;
const WS_RESET_NS = 50e3;
const I2C_TX_EMPTY = 1 << 4; // IC_RAW_INTR_STAT
const BUSY_PIN = 25; // the Pico's LED: high while the firmware's loop runs a step
const PROBE_PIN = 26; // high while the engine runs (think_pin of app.main: bench_rp2040.py)
// rp2040js's StateMachine.waitType values (its WaitType enum is not exported) for the stalls
// on an empty TX FIFO: a blocking PULL, and an OUT waiting for its autopull.
const WAIT_TX_FIFO = 3;
const WAIT_OUT = 5;

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// --- firmware files ------------------------------------------------------------------------

function uf2Blocks(data) {
  // UF2: 512-byte blocks, magic numbers at 0, 4 and 508, payload address at 12, size at 16.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const blocks = [];
  for (let off = 0; off + 512 <= data.length; off += 512) {
    if (view.getUint32(off, true) !== 0x0a324655 || view.getUint32(off + 4, true) !== 0x9e5d5157 ||
        view.getUint32(off + 508, true) !== 0x0ab16f30) {
      throw new Error(`not a UF2 file (bad block at byte ${off})`);
    }
    const addr = view.getUint32(off + 12, true);
    const size = view.getUint32(off + 16, true);
    blocks.push({ addr, payload: data.subarray(off + 32, off + 32 + size) });
  }
  if (!blocks.length) throw new Error('not a UF2 file (empty)');
  return blocks;
}

function romFunction(rom8, code) {
  // Boot ROM B1: a 16-bit pointer to the function table at 0x14; entries are 16-bit code
  // ('R','E' = flash_range_erase) and 16-bit address (Thumb bit set), ending with code 0.
  let p = rom8[0x14] | (rom8[0x15] << 8);
  for (;;) {
    const c = rom8[p] | (rom8[p + 1] << 8);
    if (!c) return -1;
    if (c === code) return (rom8[p + 2] | (rom8[p + 3] << 8)) & ~1;
    p += 4;
  }
}

function patchRom(romBytes) {
  // Breakpoints at the entry of flash_range_erase and flash_range_program (the harness does
  // the flash operation in onBreak and returns to the caller) and of reset_usb_boot (the chip
  // goes into BOOTSEL mode: it stops, and its USB drive is the harness's to model).
  const rom8 = new Uint8Array(romBytes);
  for (const [name, bkpt] of [['RE', BKPT_ERASE], ['RP', BKPT_PROGRAM], ['UB', BKPT_BOOTSEL]]) {
    const addr = romFunction(rom8, name.charCodeAt(0) | (name.charCodeAt(1) << 8));
    if (addr < 0) throw new Error(`boot ROM has no ${name} function`);
    rom8[addr] = bkpt & 0xff;
    rom8[addr + 1] = bkpt >> 8;
  }
  return new Uint32Array(rom8.buffer, rom8.byteOffset, rom8.byteLength >> 2);
}

// --- the XIP flash cache ---------------------------------------------------------------------

// rp2040js reads flash as fast as SRAM. The RP2040 reads it through a 16 KB cache, two-way set
// associative with 8-byte lines (datasheet 2.6.3.1): a miss fetches the line over QSPI while
// the core waits. This model keeps the cache's tags (1024 sets x 2 ways, least recently used
// way replaced) and charges missCycles for each miss, for instruction fetches and data reads
// alike (frozen bytecode is data the VM reads from flash). The four XIP aliases: 0x10 cached
// and allocating, 0x11 cached without allocating, 0x12 bypassing the cache but allocating,
// 0x13 bypassing it. A flash erase or program flushes it, as the SDK does.
const XIP_SETS = 1024;

class XipCache {
  constructor(missCycles) {
    this.missCycles = missCycles;
    this.tags = new Int32Array(XIP_SETS * 2);
    this.lru = new Uint8Array(XIP_SETS); // the way to replace next
    this.pending = 0; // miss cycles not yet charged to the clock
    this.hits = 0;
    this.misses = 0;
    this.flush();
  }

  flush() {
    this.tags.fill(-1);
    this.lru.fill(0);
  }

  access(address) {
    const alias = (address >>> 24) & 3;
    const line = (address & 0xffffff) >>> 3;
    const set = line & (XIP_SETS - 1);
    const tag = line >>> 10;
    const i = set * 2;
    if (alias < 2) {
      if (this.tags[i] === tag) {
        this.lru[set] = 1;
        this.hits++;
        return;
      }
      if (this.tags[i + 1] === tag) {
        this.lru[set] = 0;
        this.hits++;
        return;
      }
    }
    this.misses++;
    this.pending += this.missCycles;
    if (alias === 0 || alias === 2) {
      const way = this.lru[set];
      this.tags[i + way] = tag;
      this.lru[set] = way ^ 1;
    }
  }

  take() {
    const c = this.pending;
    this.pending = 0;
    return c;
  }

  attach(mcu) {
    // Every flash read of the core (fetch and load) passes through these three.
    const cache = this;
    for (const name of ['readUint32', 'readUint16', 'readUint8']) {
      const read = mcu[name].bind(mcu);
      mcu[name] = (address) => {
        if (address >= FLASH_XIP && address < FLASH_XIP_END) cache.access(address >>> 0);
        return read(address);
      };
    }
  }
}

// --- PIO on the simulated clock ------------------------------------------------------------

// rp2040js steps its PIO state machines from setTimeout, outside simulated time, one instruction
// per step whatever the clock divider and the delay bits say, so a PIO-driven pin has no timing.
// The bench clocks them from the simulated clock instead: each enabled machine executes its next
// instruction when its own clock (clk_sys / CLKDIV, fractional dividers on the clk_sys grid as
// the chip does) has run the instruction's 1 + delay cycles. A machine stalled on an empty TX
// FIFO is parked until the FIFO is written (by the CPU or DMA), so an idle machine costs
// nothing; any other wait is polled every PIO cycle.
class PioClock {
  constructor(mcu, pio) {
    this.pio = pio;
    this.clock = mcu.clock;
    this.running = [false, false, false, false];
    this.parked = [false, false, false, false];
    this.parkCycles = [0, 0, 0, 0];
    this.due = [0, 0, 0, 0]; // clk_sys cycle (x256) at which each machine steps next
    this.alarm = this.clock.createAlarm(() => this.tick());
    pio.run = () => {}; // the CTRL write that enables a machine: wake() takes over
    const write = pio.writeUint32.bind(pio);
    pio.writeUint32 = (offset, value) => {
      write(offset, value);
      this.wake();
    };
  }

  nowCycle() {
    // The clk_sys cycle now (the clock can stand between cycles after a timed alarm).
    return Math.floor(this.clock.nanos / NS_PER_CYCLE + 1e-6);
  }

  div256(m) {
    // CLKDIV: 16.8 fixed point; an integer part of 0 means 65536.
    return ((m.clockDivInt || 65536) << 8) + m.clockDivFrac;
  }

  advance(i, cycles) {
    const m = this.pio.machines[i];
    this.due[i] += cycles * this.div256(m);
  }

  stalledOnTx(m) {
    return m.waiting && (m.waitType === WAIT_TX_FIFO || m.waitType === WAIT_OUT) &&
      m.txFIFO.empty;
  }

  tick() {
    const now = this.nowCycle();
    const machines = this.pio.machines;
    for (let i = 0; i < 4; i++) {
      const m = machines[i];
      if (!this.running[i] || this.parked[i] || Math.floor(this.due[i] / 256) > now) continue;
      const c0 = m.cycles;
      m.step();
      this.advance(i, Math.max(1, m.cycles - c0));
      if (this.stalledOnTx(m)) {
        this.parked[i] = true;
        this.parkCycles[i] = m.cycles;
      }
    }
    this.pio.checkChangedPins();
    this.schedule();
  }

  wake() {
    const now = this.nowCycle() * 256;
    const machines = this.pio.machines;
    for (let i = 0; i < 4; i++) {
      const m = machines[i];
      if (!m.enabled) {
        this.running[i] = false;
        this.parked[i] = false;
        continue;
      }
      if (!this.running[i]) {
        this.running[i] = true;
        this.parked[i] = false;
        this.due[i] = now;
      } else if (this.parked[i] && !this.stalledOnTx(m)) {
        // A FIFO write ended the stall (rp2040js finishes the stalled instruction at once):
        // the machine goes on after that instruction's delay.
        this.parked[i] = false;
        this.due[i] = Math.max(this.due[i], now);
        this.advance(i, Math.max(1, m.cycles - this.parkCycles[i]));
      }
    }
    this.pio.checkChangedPins();
    this.schedule();
  }

  schedule() {
    let next = Infinity;
    for (let i = 0; i < 4; i++) {
      if (this.running[i] && !this.parked[i]) next = Math.min(next, this.due[i]);
    }
    if (next === Infinity) {
      this.alarm.cancel();
      return;
    }
    // On the clk_sys grid: a fractional divider gives periods of n or n + 1 cycles.
    const at = Math.floor(next / 256) * NS_PER_CYCLE;
    this.alarm.schedule(Math.max(0, at - this.clock.nanos));
  }
}

// --- the bench -----------------------------------------------------------------------------

class Bench {
  constructor(args) {
    const rom = readFileSync(args.rom);
    this.rom = patchRom(new Uint8Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length)));
    this.flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
    this.loadFirmware(args.firmware);
    if (args.flash) this.loadStorage(args.flash);
    this.xipMissCycles = args.xip_miss_cycles ?? null; // null: no cache model
    this.xipHits = 0;
    this.xipMisses = 0;
    this.bootsel = false;
    this.board = args.board;
    this.occ = new Uint8Array(63);
    this.buttons = [false, false, false];
    this.oledPresent = true;
    this.oledFailAfter = -1; // fail (NACK) after this many more transactions; -1 never
    this.baseNs = 0; // simulated time before the current chip was built (resets)
    this.flashOps = []; // {op, addr, n, t}
    this.journal = []; // bytes of the storage area before each operation
    this.journalFrom = 0; // the journal tells the truth from this operation on
    this.cutAt = -1;
    this.cutPartial = false;
    this.events = [];
    this.serialIn = [];
    this.powered = false;
    this.scanStarts = [];
    this.busy = []; // [start, end] ns of every high pulse on the busy pin (GP25): loop steps
    this.busyFrom = -1;
    this.probeHigh = false;
    this.probe = []; // [start, end] ns of every high pulse on GP26: the engine's slices
    this.probeFrom = -1;
    this.cpu = { irq: 0, engine: 0, step: 0, other: 0, sleep: 0 };
    this.i2cBuf = [];
    this.serialOut = [];
    this.powerOn(null);
  }

  nowNs() {
    return this.baseNs + (this.mcu ? this.mcu.clock.nanos : 0);
  }

  loadFirmware(path) {
    // As the boot ROM writes a UF2 copied onto its drive: each 4 KB sector a block falls in
    // is erased once, then programmed; the rest of the flash (the littlefs area) is kept.
    const erased = new Set();
    for (const b of uf2Blocks(new Uint8Array(readFileSync(path)))) {
      const off = b.addr - FLASH_XIP;
      if (off < 0 || off + b.payload.length > this.flash.length) {
        throw new Error(`UF2 block for 0x${b.addr.toString(16)}: not in flash`);
      }
      for (let s = off & ~0xfff; s < off + b.payload.length; s += 0x1000) {
        if (!erased.has(s)) {
          erased.add(s);
          this.flash.fill(0xff, s, s + 0x1000);
        }
      }
      this.flash.set(b.payload, off);
    }
  }

  loadStorage(path) {
    const img = readFileSync(path);
    if (img.length !== STORAGE_SIZE) throw new Error(`flash image must be ${STORAGE_SIZE} bytes`);
    this.flash.set(img, STORAGE_OFFSET);
    this.journalFrom = this.flashOps ? this.flashOps.length : 0; // earlier states are gone
  }

  // A new chip on the same flash: power-on (wd = null) or a watchdog / machine.reset() reboot
  // that keeps the watchdog's reason and scratch registers, as the real chip does.
  powerOn(wd) {
    if (this.mcu) this.baseNs += this.mcu.clock.nanos;
    this.countXip();
    this.bootsel = false;
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(LogLevel.Error, true);
    mcu.loadBootrom(this.rom);
    mcu.flash = this.flash;
    mcu.flash16 = new Uint16Array(this.flash.buffer);
    mcu.flashView = new DataView(this.flash.buffer);
    mcu.core.PC = FLASH_XIP;
    this.mcu = mcu;
    this.xip = null;
    if (this.xipMissCycles !== null) {
      this.xip = new XipCache(this.xipMissCycles);
      this.xip.attach(mcu);
    }
    this.watchdog = mcu.peripherals[0x40058];
    if (wd) {
      this.watchdog.reason = wd.reason;
      this.watchdog.scratchData.set(wd.scratch);
    }
    this.watchdog.onWatchdogTrigger = () => {
      // rp2040js re-arms the watchdog alarm with zero delay after it fires: stop it, or the
      // simulated clock never moves on. The chip is rebuilt before running on.
      this.watchdog.alarm.enable = false;
      this.watchdog.timer.enable = false;
      this.resetPending = this.watchdog.reason === 1 ? 'watchdog' : 'reset';
      this.stop = true;
    };
    mcu.onBreak = (code) => this.onBreak(code);
    this.pioClocks = mcu.pio.map((pio) => new PioClock(mcu, pio));
    this.setupUsb();
    this.setupPins();
    this.setupI2c();
    this.powered = true;
    this.resetPending = null;
    this.wsStart = -1;
  }

  // --- USB serial ---------------------------------------------------------------------------
  setupUsb() {
    const cdc = new USBCDC(this.mcu.usbCtrl);
    this.cdc = cdc;
    this.pendingRead = null;
    cdc.onDeviceConnected = () => {
      this.events.push({ ev: 'usb', t: this.nowNs() / 1e6 });
      this.flushSerial();
    };
    cdc.onSerialData = (buf) => {
      if (!this.hostReads) {
        this.heldIn.push(...buf);
        return;
      }
      this.serialOut.push(...buf);
      if (this.stopOn && Buffer.from(this.serialOut).includes(this.stopOn)) this.stop = true;
    };
    // A real host NAKs an OUT transfer while it has nothing to send. rp2040js would complete
    // it at once with zero bytes, and the device would take a USB interrupt every ~10 us
    // (every timing about 3x too slow), so the read is held until there is data.
    // A host that stops reading (usb_host {reading: false}): the IN transfer in flight is not
    // completed (the device's TX buffer then fills up) and its bytes arrive when it reads again.
    const usb = this.mcu.usbCtrl;
    const ready = usb.indicateBufferReady.bind(usb);
    this.hostReads = this.hostReads ?? true; // (the host's, kept across the chip's resets)
    this.heldIn = [];
    this.heldReady = [];
    usb.indicateBufferReady = (endpoint, out) => {
      if (!out && endpoint !== 0 && endpoint === cdc.inEndpoint && !this.hostReads) {
        this.heldReady.push(endpoint);
        return;
      }
      ready(endpoint, out);
    };
    this.resumeHost = () => {
      this.hostReads = true;
      this.serialOut.push(...this.heldIn);
      this.heldIn = [];
      for (const ep of this.heldReady.splice(0)) ready(ep, false);
    };
    this.mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return;
      this.pendingRead = { endpoint, size };
      this.flushSerial();
    };
  }

  flushSerial() {
    const cdc = this.cdc;
    if (!this.pendingRead || !this.serialIn.length || !cdc.initialized) return;
    const n = Math.min(this.pendingRead.size, this.serialIn.length);
    const buf = Uint8Array.from(this.serialIn.splice(0, n));
    const ep = this.pendingRead.endpoint;
    this.pendingRead = null;
    this.mcu.usbCtrl.endpointReadDone(ep, buf);
  }

  // --- pins: sensor matrix, buttons, encoder, LED chain --------------------------------------
  setupPins() {
    const b = this.board;
    const gpio = this.mcu.gpio;
    this.rowActive = new Uint8Array(9);
    // A row counts as driven only while its output is enabled and at the active level:
    // push-pull idle rows (driven inactive) and high-impedance idle rows (open drain) alike.
    const activeState = b.row_on ? GPIOPinState.High : GPIOPinState.Low;
    b.rows.forEach((pin, r) => {
      gpio[pin].addListener((state) => {
        const on = state === activeState ? 1 : 0;
        if (on === this.rowActive[r]) return;
        this.rowActive[r] = on;
        if (on && r === 0) this.scanStarts.push(this.nowNs());
        this.updateColumns();
      });
    });
    this.updateColumns();
    this.updateButtons();
    const led = gpio[b.led];
    led.addListener((state) => this.wsEdge(state === GPIOPinState.High));
    // The firmware raises GP25 (the Pico's own LED) for the length of each loop step.
    gpio[BUSY_PIN].addListener((state) => {
      if (state === GPIOPinState.High) {
        if (this.busyFrom < 0) this.busyFrom = this.nowNs();
      } else if (this.busyFrom >= 0) {
        this.busy.push([this.busyFrom, this.nowNs()]);
        this.busyFrom = -1;
      }
    });
    gpio[PROBE_PIN].addListener((state) => {
      this.probeHigh = state === GPIOPinState.High;
      if (this.probeHigh) {
        if (this.probeFrom < 0) this.probeFrom = this.nowNs();
      } else if (this.probeFrom >= 0) {
        this.probe.push([this.probeFrom, this.nowNs()]);
        this.probeFrom = -1;
      }
    });
  }

  updateColumns() {
    const b = this.board;
    const gpio = this.mcu.gpio;
    for (let f = 0; f < 7; f++) {
      let present = false;
      for (let r = 0; r < 9; r++) {
        if (this.rowActive[r] && this.occ[r * 7 + f] && !(this.stuckRows & (1 << r))) {
          present = true;
        }
      }
      // Idle: the column's pull sets it to the inactive level.
      const level = present ? b.active_level : 1 - b.active_level;
      gpio[b.cols[f]].setInputValue(!!level);
    }
  }

  updateButtons() {
    const gpio = this.mcu.gpio;
    this.board.buttons.forEach((pin, i) => gpio[pin].setInputValue(!this.buttons[i]));
  }

  encoderTurn(detents, msPerDetent) {
    // Quadrature, active low: clockwise A,B = 11 -> 01 -> 00 -> 10 -> 11 per detent (4 steps),
    // each step a quarter of the detent's time, scheduled on the simulated clock.
    const cw = [[0, 1], [0, 0], [1, 0], [1, 1]];
    const ccw = [[1, 0], [0, 0], [0, 1], [1, 1]];
    const seq = detents > 0 ? cw : ccw;
    const stepNs = (msPerDetent * 1e6) / 4;
    const gpio = this.mcu.gpio;
    const [pa, pb] = this.board.buttons;
    const steps = [];
    for (let d = 0; d < Math.abs(detents); d++) steps.push(...seq);
    let i = 0;
    const alarm = this.mcu.clock.createAlarm(() => {
      const [a, b] = steps[i++];
      gpio[pa].setInputValue(!!a);
      gpio[pb].setInputValue(!!b);
      if (i < steps.length) alarm.schedule(stepNs);
    });
    alarm.schedule(stepNs);
    return (steps.length * stepNs) / 1e6;
  }

  wsEdge(high) {
    const t = this.nowNs();
    if (high) {
      if (this.wsStart < 0 || t - this.wsFall > WS_RESET_NS) {
        this.wsFinish();
        this.wsStart = t;
        this.wsBits = [];
      }
      this.wsRise = t;
    } else if (this.wsStart >= 0) {
      this.wsBits.push(t - this.wsRise > WS_ONE_NS ? 1 : 0);
      this.wsFall = t;
    }
  }

  wsFinish() {
    // A frame ends once the line has been low for the reset time (checked lazily).
    if (this.wsStart < 0 || !this.wsBits.length) return;
    const bits = this.wsBits;
    const bytes = [];
    for (let i = 0; i + 8 <= bits.length; i += 8) {
      let v = 0;
      for (let k = 0; k < 8; k++) v = (v << 1) | bits[i + k];
      bytes.push(v);
    }
    this.events.push({
      ev: 'leds', t_first: this.wsStart / 1e6, t_end: this.wsFall / 1e6,
      hex: Buffer.from(bytes).toString('hex'),
    });
    this.wsStart = -1;
    this.wsBits = [];
  }

  // --- I2C: an SSD1306 that acknowledges and reports every write ------------------------------
  setupI2c() {
    const b = this.board;
    const i2c = this.mcu.i2c[b.i2c_id];
    const clock = this.mcu.clock;
    // No bus timing in rp2040js: each byte (8 bits + ACK) is completed after 9 SCL periods.
    const byteNs = () => {
      const cycles = i2c.sclLowPeriod + i2c.sclHighPeriod;
      return cycles > 0 ? (9 * cycles * 1e9) / this.mcu.clkSys : 22500; // I2C runs on clk_sys
    };
    let pending = null;
    const alarm = clock.createAlarm(() => {
      const f = pending;
      pending = null;
      f();
    });
    const later = (f) => {
      pending = f;
      alarm.schedule(byteNs());
    };
    let addressed = false;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address) => {
      let ack = this.oledPresent && address === b.oled_addr;
      if (ack && this.oledFailAfter === 0) ack = false;
      if (ack && this.oledFailAfter > 0) this.oledFailAfter--;
      addressed = ack;
      later(() => {
        i2c.completeConnect(ack);
        // A NACK aborts the transfer and flushes the TX FIFO, so the real chip's TX_EMPTY
        // status is set; rp2040js leaves it clear, and the SDK would wait out its timeout
        // (50 ms, OSError 110) and fail the next transfer instead of this one (EIO).
        if (!ack) i2c.setInterrupts(I2C_TX_EMPTY);
      });
    };
    i2c.onWriteByte = (v) => {
      if (addressed) this.i2cBuf.push(v);
      later(() => i2c.completeWrite(addressed));
    };
    i2c.onReadByte = () => later(() => i2c.completeRead(0xff));
    i2c.onStop = () => {
      if (addressed && this.i2cBuf.length) {
        this.events.push({ ev: 'i2c', t: this.nowNs() / 1e6, hex: Buffer.from(this.i2cBuf).toString('hex') });
      }
      this.i2cBuf = [];
      addressed = false;
      i2c.completeStop();
    };
  }

  countXip() {
    // The counts of a chip that is gone (power cycles, resets) are kept.
    if (this.xip) {
      this.xipHits += this.xip.hits;
      this.xipMisses += this.xip.misses;
      this.xip.hits = this.xip.misses = 0;
    }
  }

  // --- flash erase / program through the boot ROM ------------------------------------------
  onBreak(code) {
    const core = this.mcu.core;
    const r = core.registers;
    if (code === (BKPT_BOOTSEL & 0xff)) {
      // reset_usb_boot: the chip restarts into the boot ROM's USB drive. Here it stops; the
      // harness shows the drive and loads what is copied onto it (command firmware).
      this.bootsel = true;
      this.powered = false;
      this.stop = true;
      this.events.push({ ev: 'bootsel', t: this.nowNs() / 1e6 });
      return;
    }
    if (this.xip) this.xip.flush();
    const op = code === 1 ? 'erase' : code === 2 ? 'program' : null;
    if (!op) {
      this.events.push({ ev: 'break', code, pc: core.PC });
      this.stop = true;
      return;
    }
    const addr = r[0];
    const n = op === 'erase' ? r[1] : r[2];
    const k = this.flashOps.length;
    this.flashOps.push({ op, addr, n, t: this.nowNs() / 1e6 });
    if (addr >= STORAGE_OFFSET && addr + n <= STORAGE_OFFSET + STORAGE_SIZE) {
      this.journal.push({ addr, before: this.flash.slice(addr, addr + n) });
    } else {
      this.journal.push(null);
    }
    if (k === this.cutAt) {
      // Power cut as this operation starts: optionally half of it got done.
      if (this.cutPartial) this.applyOp(op, addr, n, r[1], n >> 1);
      this.powered = false;
      this.stop = true;
      this.events.push({ ev: 'cut', k, op, addr, n, t: this.nowNs() / 1e6 });
      return;
    }
    this.applyOp(op, addr, n, r[1], n);
    let ns;
    if (op === 'erase') {
      ns = n % 65536 === 0 && r[2] === 65536 ? (n / 65536) * ERASE_NS_PER_64K : (n / 4096) * ERASE_NS_PER_4K;
    } else {
      ns = Math.ceil(n / 256) * PROGRAM_NS_PER_PAGE;
    }
    this.mcu.clock.tick(ns);
    core.PC = core.LR & ~1; // return to the caller
  }

  applyOp(op, addr, n, src, count) {
    if (op === 'erase') {
      this.flash.fill(0xff, addr, addr + count);
    } else {
      const sram = this.mcu.sram;
      const base = src - 0x20000000;
      for (let i = 0; i < count; i++) this.flash[addr + i] &= sram[base + i];
    }
  }

  storageAt(k, partial) {
    // The storage area as it was when operation k started (+ half of it with `partial`):
    // undo the journal from the newest operation back to k.
    if (k < this.journalFrom) throw new Error(`the flash was replaced after operation ${k}`);
    const img = this.flash.slice(STORAGE_OFFSET, STORAGE_OFFSET + STORAGE_SIZE);
    for (let j = this.journal.length - 1; j >= k; j--) {
      const e = this.journal[j];
      if (e) img.set(e.before, e.addr - STORAGE_OFFSET);
    }
    if (partial && k < this.flashOps.length && this.journal[k]) {
      // Half done: the first half of the range has its new contents (erase: 0xFF; program:
      // the bytes as they were right after operation k).
      const { op, addr, n } = this.flashOps[k];
      const half = n >> 1;
      img.set(op === 'erase' ? new Uint8Array(half).fill(0xff) : this.afterOp(k, addr, half),
        addr - STORAGE_OFFSET);
    }
    return img;
  }

  afterOp(k, addr, len) {
    // Flash bytes [addr, addr + len) right after operation k: undo the later operations there.
    const img = this.flash.slice(addr, addr + len);
    for (let j = this.journal.length - 1; j > k; j--) {
      const e = this.journal[j];
      if (!e) continue;
      const lo = Math.max(e.addr, addr);
      const hi = Math.min(e.addr + e.before.length, addr + len);
      for (let a = lo; a < hi; a++) img[a - addr] = e.before[a - e.addr];
    }
    return img;
  }

  // --- running ---------------------------------------------------------------------------------
  run(untilMs, stopOn) {
    const target = untilMs * 1e6;
    this.stopOn = stopOn ? Buffer.from(stopOn, 'hex') : null;
    this.stop = false;
    // Both loops compare the clock with the same difference: the times are fractional ns, and
    // baseNs + nanos can round below a target that nanos >= target - baseNs has already
    // reached (the run then spun for ever without the clock moving).
    while (this.powered && !this.stop && this.mcu.clock.nanos < target - this.baseNs) {
      const mcu = this.mcu;
      const core = mcu.core;
      const clock = mcu.clock;
      const limit = target - this.baseNs;
      const from = clock.nanos;
      for (let i = 0; i < 20000 && !this.stop; i++) {
        if (clock.nanos >= limit) break;
        if (core.waiting) {
          const d = clock.nanosToNextAlarm;
          const ns = d > 0 ? Math.min(d, limit - clock.nanos) : limit - clock.nanos;
          clock.tick(ns);
          this.cpu.sleep += ns;
        } else {
          const cycles = core.executeInstruction();
          const ns = (this.xip ? cycles + this.xip.take() : cycles) * NS_PER_CYCLE;
          clock.tick(ns);
          const cpu = this.cpu;
          if (core.IPSR) cpu.irq += ns;
          else if (this.probeHigh) cpu.engine += ns;
          else if (this.busyFrom >= 0) cpu.step += ns;
          else cpu.other += ns;
        }
      }
      if (clock.nanos === from && !this.stop && !this.resetPending) {
        // A round of the loop that moved no time would repeat for ever: a caller's error now.
        throw new Error(`the simulated clock stopped at ${this.nowNs()} ns (target ${target})`);
      }
      if (this.resetPending) {
        const why = this.resetPending;
        this.events.push({ ev: 'reset', why, t: this.nowNs() / 1e6 });
        this.wsFinish();
        this.powerOn({ reason: this.watchdog.reason, scratch: this.watchdog.scratchData.slice() });
        this.stop = false;
      }
    }
    if (this.wsStart >= 0 && this.nowNs() - this.wsFall > WS_RESET_NS) this.wsFinish();
    this.stopOn = null;
  }
}

// --- protocol ----------------------------------------------------------------------------------

let bench = null;

function handle(msg) {
  const cmd = msg.cmd;
  if (cmd === 'init') {
    bench = new Bench(msg);
    return {};
  }
  if (!bench) throw new Error('init first');
  switch (cmd) {
    case 'run':
      bench.run(msg.until_ms, msg.stop_on);
      return { powered: bench.powered, bootsel: bench.bootsel };
    case 'serial':
      bench.serialIn.push(...Buffer.from(msg.hex, 'hex'));
      bench.flushSerial();
      return {};
    case 'usb_host':
      if (msg.reading) bench.resumeHost();
      else bench.hostReads = false;
      return {};
    case 'squares':
      for (let i = 0; i < 63; i++) bench.occ[i] = msg.occ[i] === '1' ? 1 : 0;
      bench.updateColumns();
      return {};
    case 'stuck_rows':
      bench.stuckRows = msg.mask;
      bench.updateColumns();
      return {};
    case 'button':
      bench.buttons[msg.index] = !!msg.down;
      bench.updateButtons();
      return {};
    case 'encoder':
      return { ms: bench.encoderTurn(msg.detents, msg.ms_per_detent) };
    case 'oled':
      bench.oledPresent = !!msg.present;
      bench.oledFailAfter = msg.fail_after ?? -1;
      return {};
    case 'power':
      if (msg.on) {
        bench.powerOn(null);
      } else {
        bench.powered = false;
      }
      return {};
    case 'cut':
      bench.cutAt = msg.at;
      bench.cutPartial = !!msg.partial;
      return {};
    case 'flash_save': {
      const k = msg.k ?? bench.flashOps.length;
      writeFileSync(msg.path, bench.storageAt(k, !!msg.partial));
      return { ops: bench.flashOps.length };
    }
    case 'flash_load':
      bench.loadStorage(msg.path);
      return {};
    case 'firmware':
      if (bench.powered) throw new Error('the chip runs: power it off or enter BOOTSEL first');
      bench.loadFirmware(msg.path);
      return {};
    case 'xip':
      bench.countXip();
      return { model: bench.xipMissCycles !== null, miss_cycles: bench.xipMissCycles,
        hits: bench.xipHits, misses: bench.xipMisses };
    case 'flash_ops': {
      const from = msg.from ?? 0;
      return { ops: bench.flashOps.slice(from), total: bench.flashOps.length };
    }
    case 'busy': {
      const s = bench.busy.map(([a, e]) => [a / 1e6, e / 1e6]);
      if (msg.clear) bench.busy = [];
      return { steps: s };
    }
    case 'cpu': {
      const c = { ...bench.cpu };
      if (msg.clear) bench.cpu = { irq: 0, engine: 0, step: 0, other: 0, sleep: 0 };
      return c;
    }
    case 'probe': {
      const s = bench.probe.map(([a, e]) => [a / 1e6, e / 1e6]);
      if (msg.clear) bench.probe = [];
      return { slices: s };
    }
    case 'scans': {
      const s = bench.scanStarts.map((t) => t / 1e6);
      if (msg.clear) bench.scanStarts = [];
      return { starts: s };
    }
    case 'time':
      return {};
    default:
      throw new Error(`unknown command ${cmd}`);
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let reply;
  try {
    reply = handle(JSON.parse(line));
    reply.ok = true;
  } catch (e) {
    reply = { ok: false, error: String(e && e.stack ? e.stack : e) };
  }
  if (bench) {
    for (const ev of bench.events) out(ev);
    bench.events = [];
    if (bench.serialOut.length) {
      out({ ev: 'serial', hex: Buffer.from(bench.serialOut).toString('hex') });
      bench.serialOut = [];
    }
    reply.t = bench.nowNs() / 1e6;
  }
  out(reply);
});
