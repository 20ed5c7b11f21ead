"""The part of ``SerialLink`` every scripted stand-in link shares: a subclass answers
``command``; the stand-in sends no events, so every reply comes after none."""


class ScriptedLink:
    on_event = None
    closed = False
    events_read = 0

    def command(self, line, timeout=3.0):
        raise NotImplementedError

    def command_in_order(self, line, timeout=3.0):
        return self.command(line, timeout), self.events_read

    def commands(self, lines, timeout=3.0):
        return [self.command(line, timeout) for line in lines]
