# Headless Chromium driven over the Chrome DevTools Protocol through a pipe
# (--remote-debugging-pipe: commands on the browser's fd 3, replies on fd 4, NUL-separated
# JSON). No WebDriver, no pip package, nothing downloaded: only Debian's `chromium`.
#
#   b = Browser()                      starts chromium (find_chromium() or $CHROMIUM)
#   b.goto("http://127.0.0.1:8765/")
#   b.eval("window.sim.model.supply")  a JS expression's value (JSON-able)
#   b.click("#btn-ok")                 a real mouse click in the middle of an element
#   b.mouse_down("#btn-ok"); b.mouse_up("#btn-ok")
#   b.screenshot("page.png")
#   b.close()
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--hide-scrollbars",
         "--mute-audio", "--force-device-scale-factor=1", "--remote-debugging-pipe",
         "--lang=en-US"]      # pages that follow the browser's language see English everywhere


def find_chromium():
    env = os.environ.get("CHROMIUM")
    if env:
        return shutil.which(env)
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name) if not os.path.isabs(name) else (name if os.path.exists(name)
                                                                 else None)
        if p:
            return p
    return None


class CdpError(RuntimeError):
    pass


class Browser:
    def __init__(self, chromium=None, width=1400, height=940, timeout=20):
        exe = chromium or find_chromium()
        if exe is None:
            raise CdpError("no chromium executable")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="sim_chromium_")
        r_cmd, w_cmd = os.pipe()       # we write -> chromium reads on fd 3
        r_res, w_res = os.pipe()       # chromium writes on fd 4 -> we read

        def child_fds():
            os.dup2(r_cmd, 3)
            os.dup2(w_res, 4)

        self.proc = subprocess.Popen(
            [exe] + FLAGS + ["--user-data-dir=" + self.profile,
                             "--window-size=%d,%d" % (width, height), "about:blank"],
            pass_fds=(3, 4), preexec_fn=child_fds, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_cmd)
        os.close(w_res)
        self._w = w_cmd
        self._r = r_res
        self._buf = b""
        self._id = 0
        self.session = None
        self.console = []              # console messages and page errors
        targets = self.call("Target.getTargets", session=False)["targetInfos"]
        page = [t for t in targets if t["type"] == "page"]
        if page:
            tid = page[0]["targetId"]
        else:
            tid = self.call("Target.createTarget", {"url": "about:blank"},
                            session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": tid, "flatten": True},
                                 session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    # --- protocol ------------------------------------------------------------------------------
    def call(self, method, params=None, session=True, timeout=None):
        self._id += 1
        mid = self._id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + (timeout or self.timeout)
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                d = json.loads(raw)
                if d.get("id") == mid:
                    if "error" in d:
                        raise CdpError("%s: %s" % (method, d["error"].get("message")))
                    return d.get("result", {})
                self._event(d)
            left = end - time.monotonic()
            if left <= 0:
                raise CdpError("%s: no answer from chromium" % method)
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise CdpError("chromium closed the pipe")
                self._buf += chunk

    def _event(self, d):
        m = d.get("method")
        if m == "Runtime.consoleAPICalled":
            args = d["params"].get("args", [])
            self.console.append(" ".join(str(a.get("value", a.get("description", "")))
                                         for a in args))
        elif m == "Runtime.exceptionThrown":
            det = d["params"]["exceptionDetails"]
            self.console.append("exception: %s" % det.get("exception", {}).get(
                "description", det.get("text")))

    # --- page ----------------------------------------------------------------------------------
    def goto(self, url, ready="document.readyState === 'complete'"):
        self.call("Page.navigate", {"url": url})
        self.wait(ready, what="page load")

    def eval(self, expr, await_promise=False):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": await_promise})
        if "exceptionDetails" in r:
            det = r["exceptionDetails"]
            raise CdpError("JS error in %r: %s" % (expr[:80], det.get("exception", {}).get(
                "description", det.get("text"))))
        return r.get("result", {}).get("value")

    def wait(self, expr, timeout=30.0, what=None, interval=0.03):
        """Poll a JS expression until it is truthy; returns its value."""
        end = time.monotonic() + timeout
        last = None
        while True:
            try:
                last = self.eval(expr)
            except CdpError:
                last = None
            if last:
                return last
            if time.monotonic() > end:
                raise CdpError("timed out after %.1f s waiting for %s" % (timeout, what or expr))
            time.sleep(interval)

    def centre(self, selector):
        r = self.eval("(function(){var e=document.querySelector(%s); if(!e) return null;"
                      "e.scrollIntoView({block:'nearest'}); var r=e.getBoundingClientRect();"
                      "return [r.left + r.width/2, r.top + r.height/2];})()"
                      % json.dumps(selector))
        if r is None:
            raise CdpError("no element %s" % selector)
        return r

    def _mouse(self, kind, x, y):
        self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                               "buttons": 1 if kind == "mousePressed" else 0,
                                               "clickCount": 1})

    def mouse_down(self, selector):
        x, y = self.centre(selector)
        self._mouse("mouseMoved", x, y)
        self._mouse("mousePressed", x, y)

    def mouse_up(self, selector):
        x, y = self.centre(selector)
        self._mouse("mouseReleased", x, y)

    def click(self, selector):
        self.mouse_down(selector)
        self.mouse_up(selector)

    def set_files(self, selector, paths):
        """Choose files in an <input type=file> (fires its change event)."""
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node:
            raise CdpError("no element %s" % selector)
        self.call("DOM.setFileInputFiles", {"nodeId": node, "files": list(paths)})

    def screenshot(self, path, clip=None):
        """PNG of the viewport, or of clip = (x, y, width, height) in CSS pixels."""
        params = {"format": "png"}
        if clip:
            params["clip"] = {"x": clip[0], "y": clip[1], "width": clip[2], "height": clip[3],
                              "scale": 1}
        data = self.call("Page.captureScreenshot", params)["data"]
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=3)
        except (CdpError, OSError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
