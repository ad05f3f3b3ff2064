"""Server-Sent Events and the long-poll: the async views that wait (see games.realtime.hub).

Each is a DRF view that Django runs as an async view (`views.WaitingView`): its sync part
(authentication, throttling, access checks, parsing) runs off the event loop; what it returns may
be a stream, whose async iterator then runs on the loop, sleeping on Redis and reading the
database only to send, or a long-poll's wait for news, on the loop too.

    GET /games/{id}/events/?wait=   the long-poll: the game's log after `after`, once there is any
    GET /games/{id}/stream/   the game's log as you may see it (selectors.describe, as /events/),
                              `id:` = seq; resume with Last-Event-ID (or ?after=N)
    GET /stream/              your own news across games: notifications, and each of your games
                              when it starts, finishes or the turn comes to you; and the events of
                              the games it follows, as their own streams send them
    POST /stream-tickets/     a single-use ticket (?ticket=) for browsers' EventSource (tickets.py)

The modules, from the routes down: `views` (their base view), `game` and `user` (each stream's
view and reader), `long_poll` (the long-poll's wait; its view is games.api.views.EventsView),
`loop` (the SSE response and its loop), `guard` (whether a channel may go on), `tails` (a game's
latest events, read once per process), `schema` (what each `event:` carries, for the OpenAPI
document).
"""
