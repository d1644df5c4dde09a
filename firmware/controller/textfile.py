# A language's texts read from a file, a text at a time (controller/i18n.py: the .mpy build
# carries every language so, instead of a module whose strings would all be on the heap).
# tools/deploy.py writes the file; little-endian:
#   b"BGT4", the count n (2 bytes), the texts' length (2 bytes), the id of the English table
#   the places count in (4 bytes: controller/i18n.py's _TABLE);
#   65 bucket starts (2 bytes each): bucket b, the texts whose English key & 63 == b, has
#   key entries start[b] to start[b + 1];
#   n key entries of 5 bytes: the English text's key (i18n._key, 3 bytes), its place (2);
#   n text entries of 3 bytes, by place: where the text begins among the texts (2), its length;
#   the texts in UTF-8.
# Only the open file and a small scratch buffer stay on the heap; each text read is a new str.
_HEAD = 142         # up to the key entries
_MAXB = 16          # key entries a bucket may hold (deploy.py refuses a file with more)


class TextFile:
    def __init__(self, path, table):
        """Open the file at path; ValueError if there is none, it is not such a file or its
        places count in another English table than table (another firmware version)."""
        try:
            f = open(path, "rb")
        except OSError:
            raise ValueError("no texts for this language on the board (%s)" % path)
        head = f.read(_HEAD)
        n = head[4] | head[5] << 8 if len(head) == _HEAD else 0
        self.n = n
        self.ti = _HEAD + 5 * n         # where the text entries begin
        self.at = self.ti + 3 * n       # ... and the texts
        why = None
        if (len(head) != _HEAD or head[:4] != b"BGT4"
                or head[_HEAD - 2] | head[_HEAD - 1] << 8 != n
                or f.seek(0, 2) != self.at + (head[6] | head[7] << 8)):
            why = "%s is not a language file of this firmware"
        elif head[8] | head[9] << 8 | head[10] << 16 | head[11] << 24 != table:
            why = "%s is from another firmware version"
        if why:
            f.close()
            raise ValueError(why % path)
        self.f = f
        self.e = bytearray(5 * _MAXB)

    def find(self, k):
        """The place of the text whose English key is k; ValueError if the file has none."""
        f, e = self.f, self.e
        f.seek(12 + 2 * (k & 63))
        f.readinto(e, 4)
        i, j = e[0] | e[1] << 8, e[2] | e[3] << 8
        if not 0 <= j - i <= _MAXB:
            raise ValueError("damaged language file")
        f.seek(_HEAD + 5 * i)
        f.readinto(e, 5 * (j - i))
        for x in range(0, 5 * (j - i), 5):
            if e[x] | e[x + 1] << 8 | e[x + 2] << 16 == k:
                return e[x + 3] | e[x + 4] << 8
        raise ValueError("no text with key %d" % k)

    def item(self, i):
        """The text at place i (IndexError beyond the last)."""
        if not 0 <= i < self.n:
            raise IndexError("no text at place %d" % i)
        f, e = self.f, self.e
        f.seek(self.ti + 3 * i)
        f.readinto(e, 3)
        f.seek(self.at + (e[0] | e[1] << 8))
        try:
            return str(f.read(e[2]), "utf-8")
        except UnicodeError:        # damaged: a mark on the screen, not a crash at every boot
            return "?"

    def close(self):
        self.f.close()
