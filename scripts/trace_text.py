"""The part of an .nfctrace text trace every generator writes the same way (stdlib only): a
running clock in microseconds, comment lines, field events, event lines with their time span,
direction and bytes, and the file with its header (docs/trace-format.md)."""


class TextTrace:
    def __init__(self):
        self.lines = []
        self.t = 0.0

    def comment(self, text):
        self.lines.append("")
        self.lines.append("# " + text)

    def field(self, on):
        self.lines.append("%14d  %s" % (round(self.t), "field-on" if on else "field-off"))
        self.t += 5000 if on else 20000

    def event(self, who, data, duration, suffix="", note=None):
        """An event line from now to now + duration; the clock moves to its end."""
        start = round(self.t)
        end = round(self.t + duration)
        text = "%14s  %s  %s" % ("%d..%d" % (start, end), who, " ".join("%02X" % b for b in data)) + suffix
        if note:
            text += "  # " + note
        self.lines.append(text)
        self.t += duration

    def text(self, header):
        """The whole file: the magic line, `@key value` header lines, then the events."""
        return "\n".join(["nfctrace 1"] + header + self.lines) + "\n"
