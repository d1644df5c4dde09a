# A language's texts read from a file, a text at a time (controller/i18n.py: the .mpy build
# carries each language but English so, instead of a module whose strings would all be on the
# heap). tools/deploy.py writes the file; little-endian:
#   b"BGT2", the count n (2 bytes), the texts' length (2 bytes); 65 bucket starts (2 bytes
#   each: bucket b, the texts whose key & 63 == b, has entries start[b] to start[b + 1]); n
#   entries of 6 bytes (the English text's key (i18n._key), 3 bytes; where the text begins
#   among the texts, 2; its length, 1); the texts in UTF-8.
# Only the open file and a small scratch buffer stay on the heap; each text read is a new str.
_HEAD = 138         # up to the entries
_MAXB = 16          # entries a bucket may hold (deploy.py refuses a file with more)


class TextFile:
    def __init__(self, path):
        """Open the file at path; ValueError if there is none or it is not such a file."""
        try:
            f = open(path, "rb")
        except OSError:
            raise ValueError("no texts for this language on the board (%s)" % path)
        head = f.read(_HEAD)
        n = head[4] | head[5] << 8 if len(head) == _HEAD else 0
        self.at = _HEAD + 6 * n         # where the texts begin
        if (head[:4] != b"BGT2" or head[_HEAD - 2] | head[_HEAD - 1] << 8 != n
                or f.seek(0, 2) != self.at + (head[6] | head[7] << 8)):
            f.close()
            raise ValueError("%s is not a language file of this firmware" % path)
        self.f = f
        self.e = bytearray(6 * _MAXB)

    def text(self, k):
        """The text whose key is k; ValueError if the file has none."""
        f, e = self.f, self.e
        f.seek(8 + 2 * (k & 63))
        f.readinto(e, 4)
        i, j = e[0] | e[1] << 8, e[2] | e[3] << 8
        f.seek(_HEAD + 6 * i)
        f.readinto(e, 6 * (j - i))
        for x in range(0, 6 * (j - i), 6):
            if e[x] | e[x + 1] << 8 | e[x + 2] << 16 == k:
                f.seek(self.at + (e[x + 3] | e[x + 4] << 8))
                return str(f.read(e[x + 5]), "utf-8")
        raise ValueError("no text with key %d" % k)

    def close(self):
        self.f.close()
