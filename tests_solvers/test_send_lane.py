"""The send lane: one request at a time from build to wire, never held while a reply is awaited.

Through aiohttp the lane is let go when the body is written (the Gemini fake-server tests hold
64 requests in flight through it); these tests pin the rest: without a wire signal the lane is
held until the call ends, a failure lets it go, and a cancelled caller does not keep it.
"""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest

from fixtures.backends.send_lane import SendLane, wire_trace_config


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, timeout=10))


def test_without_a_wire_signal_the_lane_is_held_until_the_call_ends():
    async def scenario() -> list[str]:
        lane, order = SendLane(), []
        release_first = asyncio.Event()

        async def first() -> str:
            order.append("first starts")
            await release_first.wait()
            order.append("first ends")
            return "one"

        async def second() -> str:
            order.append("second starts")
            return "two"

        one = asyncio.ensure_future(lane.send(first))
        two = asyncio.ensure_future(lane.send(second))
        await asyncio.sleep(0.05)
        assert order == ["first starts"]  # the second waits for the lane
        release_first.set()
        assert await asyncio.gather(one, two) == ["one", "two"]
        return order

    assert run(scenario()) == ["first starts", "first ends", "second starts"]


def test_a_failed_call_lets_the_lane_go():
    async def scenario() -> str:
        lane = SendLane()

        async def boom() -> str:
            raise ConnectionError("refused")

        with pytest.raises(ConnectionError):
            await lane.send(boom)

        async def fine() -> str:
            return "sent"

        return await lane.send(fine)

    assert run(scenario()) == "sent"


def test_a_cancelled_caller_lets_the_lane_go():
    async def scenario() -> str:
        lane = SendLane()
        stuck = asyncio.ensure_future(lane.send(lambda: asyncio.sleep(3600)))
        await asyncio.sleep(0.01)
        stuck.cancel()

        async def fine() -> str:
            return "sent"

        return await lane.send(fine)

    assert run(scenario()) == "sent"


def test_requests_that_cannot_connect_do_not_block_each_other():
    """A refused connection never reaches the wire signal; every caller still gets its error."""
    with socket.socket() as sock:  # a port with nothing listening
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]

    async def scenario() -> list[BaseException | str]:
        lane = SendLane()
        async with aiohttp.ClientSession(trace_configs=[wire_trace_config()]) as session:

            async def post() -> str:
                async with session.post(f"http://127.0.0.1:{port}/", data=b"{}") as reply:
                    return await reply.text()

            return await asyncio.gather(*(lane.send(post) for _ in range(4)),
                                        return_exceptions=True)

    outcomes = run(scenario())
    assert len(outcomes) == 4
    assert all(isinstance(o, aiohttp.ClientConnectionError) for o in outcomes)
