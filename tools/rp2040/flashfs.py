# The Pico's file system on the host: MicroPython v1.28 on RPI_PICO mounts littlefs2 at / from
# flash offset 0xA0000 (352 blocks of 4 KB; read size 32, program size 256, lookahead 32; and
# as MicroPython's extmod/vfs_lfsx.c sets them, a cache of 4 x 256 bytes and block_cycles 100:
# with littlefs-python's default cache of 256 bytes, a file kept inline in its directory's
# metadata (up to 512 bytes: a game.txt of 25 to 45 turns) reads back as corrupt).
# littlefs-python builds such an image from the deployed firmware and reads one back.
import os

try:
    import littlefs
except ImportError:              # the caller says so (pico.missing)
    littlefs = None

BLOCK_SIZE = 4096
BLOCK_COUNT = 352
IMAGE_SIZE = BLOCK_SIZE * BLOCK_COUNT


def _fs(mount=True):
    return littlefs.LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32,
                             prog_size=256, lookahead_size=32, cache_size=1024,
                             block_cycles=100, mount=mount)


def build_image(tree=None, files=None):
    """A fresh image holding every file under directory `tree` (as the board's root) and
    `files` ({board path: bytes}, written after the tree)."""
    fs = _fs(mount=False)
    fs.format()
    fs.mount()
    items = []
    if tree:
        for dirpath, dirnames, filenames in os.walk(tree):
            dirnames.sort()
            rel = os.path.relpath(dirpath, tree).replace(os.sep, "/")
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                with open(os.path.join(dirpath, name), "rb") as f:
                    items.append((name if rel == "." else rel + "/" + name, f.read()))
    items += sorted((files or {}).items())
    for path, data in items:
        parts = path.split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            try:
                fs.mkdir(d)
            except FileExistsError:
                pass
        with fs.open(path, "wb") as f:
            f.write(data)
    fs.unmount()
    return bytes(fs.context.buffer)


def _mounted(image):
    fs = _fs(mount=False)
    fs.context.buffer[:] = image
    fs.mount()
    return fs


def read_files(image):
    """{path: bytes} of every file on the image (subdirectories as 'dir/name')."""
    fs = _mounted(image)
    out = {}
    for root, dirs, files in fs.walk("/"):
        for name in files:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    fs.unmount()
    return out


def read_file(image, path):
    """The bytes of one file on the image, or None when there is none."""
    fs = _mounted(image)
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
    finally:
        fs.unmount()


def with_files(image, files, remove=()):
    """A copy of image with files ({path: bytes}) written and paths in `remove` deleted."""
    fs = _mounted(image)
    for path in remove:
        try:
            fs.remove(path)
        except FileNotFoundError:
            pass
    for path, data in files.items():
        parts = path.split("/")
        for i in range(1, len(parts)):          # (its folders first)
            try:
                fs.mkdir("/".join(parts[:i]))
            except FileExistsError:
                pass
        with fs.open(path, "wb") as f:
            f.write(data)
    fs.unmount()
    return bytes(fs.context.buffer)


def used_blocks(image):
    """Blocks of the image that littlefs has in use."""
    fs = _mounted(image)
    n = fs.used_block_count
    fs.unmount()
    return n


def fill_blocks(image, name="filler", leave=0):
    """A copy of image with every free block but `leave` taken by files. Small files still
    fit: littlefs keeps them inside the directory's metadata (fill that on the board
    itself)."""
    fs = _mounted(image)
    n = 0
    while BLOCK_COUNT - fs.used_block_count > leave:
        blocks = min(BLOCK_COUNT - fs.used_block_count - leave, 16)
        # Blocks after a file's first carry skip-list pointers: leave room for them.
        with fs.open("%s%d.bin" % (name, n), "wb") as f:
            f.write(b"\xa5" * (blocks * (BLOCK_SIZE - 16)))
        n += 1
    fs.unmount()
    return bytes(fs.context.buffer)
