"""Keys typed ahead go where a slow typist's would.

Over SSH a terminal's keys arrive in bursts: ``Enter`` and the keys typed
after it reach the app together. Textual routes each key the moment the app
takes it from its queue: to the widget focused *then* (``App.on_event``
posts it to that widget's queue). What a key does happens later, in other
queues: the focused field handles it, it bubbles up to the screen and back
to the app, which only then runs the key's binding (a dialog's Enter, a
field's Tab); the dialog then dismisses itself or another one is pushed. A
key that came right behind went to the old target meanwhile: into the
closing prompt ("Clue foundpRats"), into the same field after a Tab
("MackeyJussi"), to the main screen under a dialog still being mounted, or
to a dialog already dismissed, which then dismissed the main screen
(``ScreenStackError: Can't pop screen``).

:class:`TypeAhead`, mixed into each of Polku's apps, routes one key at a
time: a key that arrives while the app is still busy (an earlier key, or
what it set off, not yet handled by every message queue of the app) is held,
and held keys are given to the app one by one, each once everything the one
before set off is done. A key then goes to the screen and widget that are
active once the keys before it have taken effect, in order; none is lost or
doubled. A key typed into an idle app is routed at once, as before.

Escape and the key after it in one read are the two keys too, not Alt with the key
(:func:`~.compat.read_escape_as_a_key`, set up by each app).
"""

from __future__ import annotations

import asyncio
from collections import deque
from functools import partial
from typing import Any, Callable

from textual import events
from textual.app import App
from textual.message_pump import MessagePump

from .compat import in_a_message_pump, message_pumps, pump_at_rest, read_escape_as_a_key

LOOK_AGAIN_S = 0.25
"""While held keys wait, the app's queues are looked at again at least this often (a queue that
closed meanwhile never runs the callback it was given)."""

GIVE_UP_LOOKS = 40
"""A held key is let go after this many looks found a queue that did not answer in time (about ten
seconds), or after 25 times as many looks in all: a handler stuck for good, or a widget that
never stops sending itself messages, must not freeze the keyboard."""


class HeldKey(events.Event, bubble=False):
    """A key that was held while the app was busy, given back to the app in its turn."""

    def __init__(self, key: events.Key) -> None:
        super().__init__()
        self.key = key


class TypeAhead:
    """Mixed into an :class:`~textual.app.App` before ``App`` (and before :class:`~.limits.InputLimits`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        read_escape_as_a_key()
        self._held_keys: deque[events.Key] = deque()
        self._releasing: asyncio.Task[None] | None = None
        self._after_keys: list[Callable[[], Any]] = []
        self.looks_timed_out = 0
        """How often a held key waited a whole LOOK_AGAIN_S for the app's queues (a key that
        waits for nothing else is released as soon as the one before is handled)."""

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        """As ``App.call_later`` ("after all messages are processed"), where held keys count as
        messages not yet processed: a callback asked for from outside the app's message queues
        (a test's pilot waiting for the app to settle) runs once the held keys are handled too."""
        if self._held_keys and not in_a_message_pump(self._app()):
            self._after_keys.append(partial(callback, *args, **kwargs))
            return True
        result: bool = super().call_later(callback, *args, **kwargs)  # type: ignore[misc]
        return result

    def _app(self) -> App[Any]:
        assert isinstance(self, App)
        return self

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, HeldKey):
            await super().on_event(event.key)  # type: ignore[misc]
            return
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self._held_keys or not self.keys_at_rest(dispatching=True):
                self._held_keys.append(event)
                if self._releasing is None or self._releasing.done():
                    self._releasing = asyncio.create_task(self._release_held_keys(), name="polku type-ahead")
                return
        await super().on_event(event)  # type: ignore[misc]

    def keys_at_rest(self, *, dispatching: bool = False) -> bool:
        """No key is held, and every message queue of the app has handled all it was given.

        ``dispatching``: asked by the app itself while it handles a message (it is
        then at rest if nothing more waits in its own queue).
        """
        if self._held_keys and not dispatching:
            return False
        app = self._app()
        return all(pump_at_rest(p, current=dispatching and p is app) for p in message_pumps(app))

    async def _release_held_keys(self) -> None:
        while True:
            await self._until_at_rest()
            if not self._held_keys:
                break
            key = self._held_keys.popleft()
            if not self.post_message(HeldKey(key)):  # type: ignore[attr-defined]
                self._held_keys.clear()  # the app is closing
                break
            # The app's queue now holds the key, so the next wait covers what it sets off.
        later, self._after_keys = self._after_keys, []
        for callback in later:
            self.call_later(callback)

    async def _until_at_rest(self) -> None:
        """Wait until every message queue of the app has handled what it holds, and what that set off."""
        stuck = rounds = 0
        while True:
            busy = [p for p in message_pumps(self._app()) if not pump_at_rest(p)]
            if not busy or stuck >= GIVE_UP_LOOKS or rounds >= 25 * GIVE_UP_LOOKS:
                return
            rounds += 1
            done = asyncio.Event()
            left = [0]

            def handled(left: list[int] = left, done: asyncio.Event = done) -> None:
                left[0] -= 1
                if left[0] == 0:
                    done.set()

            for pump in busy:
                # MessagePump's own call_later: this app's override would keep the callback
                # until the held keys are handled, and this wait would then always time out.
                if MessagePump.call_later(pump, handled):
                    left[0] += 1
            if left[0]:
                try:
                    await asyncio.wait_for(done.wait(), LOOK_AGAIN_S)
                    continue
                except asyncio.TimeoutError:
                    self.looks_timed_out += 1
            else:
                await asyncio.sleep(0)
            stuck += 1


def held_keys(app: Any) -> int:
    """How many keys the app holds back (0 for an app without :class:`TypeAhead`)."""
    return len(getattr(app, "_held_keys", ()))


__all__ = ["HeldKey", "TypeAhead", "held_keys"]
