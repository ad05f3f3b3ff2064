#!/usr/bin/env bash
# A whole game of Pick Pic with curl: the API as a client sees it.
#
#   API=http://localhost:8000/api/v1 bash docs/curl-walkthrough.sh     # against `make run`
#
# The test suite runs this very script against a live server (tests/docs/test_curl_walkthrough.py),
# so it cannot drift from the API. It needs curl and python3 (to read the JSON answers).
#
# Card ids differ from game to game: every game shuffles from its own secret seed. So nothing
# below hard-codes a card; each move is read from the answers (here: the first legal move).
set -euo pipefail

API=${API:-http://localhost:8000/api/v1}
RUN=${RUN:-$(date +%s)-$$}          # makes the usernames of this run unique
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

say() { printf '\n## %s\n' "$*"; }

# call METHOD PATH [JSON [curl options...]]: shows the request and the answer; sets STATUS and
# BODY (headers in $TMP/headers). AUTH (a token) is sent when set.
call() {
    local method=$1 path=$2 data=${3:-}
    shift $(( $# < 3 ? $# : 3 ))
    local args=(-s -o "$TMP/body" -D "$TMP/headers" -w '%{http_code}' -X "$method" "$API$path")
    if [ -n "${AUTH:-}" ]; then args+=(-H "Authorization: Token $AUTH"); fi
    if [ -n "$data" ]; then args+=(-H 'Content-Type: application/json' -d "$data"); fi
    STATUS=$(curl "${args[@]}" "$@")
    BODY=$(cat "$TMP/body")
    printf '$ curl -X %s $API%s%s\n%s %.400s\n' "$method" "$path" "${data:+ -d '$data'}" "$STATUS" "$BODY"
}
expect() {
    if [ "$STATUS" != "$1" ]; then echo "FAILED: expected HTTP $1, got $STATUS: $BODY" >&2; exit 1; fi
}
# json EXPR: a Python expression over the last answer `d`, printed (dicts and lists as JSON).
json() {
    printf '%s' "$BODY" | python3 -c "
import json, sys
d = json.load(sys.stdin)
v = $1
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)"
}
check() {  # check EXPR: a Python condition over the last answer that must hold
    [ "$(json "bool($1)")" = "true" ] || { echo "FAILED: $1 on $BODY" >&2; exit 1; }
}
header() { grep -i "^$1:" "$TMP/headers" | head -n1 | cut -d' ' -f2- | tr -d '\r'; }

say "Three players register; each gets a token (a lost one: POST /accounts/token/ {username, password})"
for name in ann ben cat; do
    call POST /accounts/register/ "{\"username\":\"$name-$RUN\",\"password\":\"darkroom-$name-2026\",\"email\":\"$name@example.org\"}"
    expect 201
    printf -v "TOKEN_$name" '%s' "$(json 'd["token"]')"
done
ANN=$TOKEN_ann BEN=$TOKEN_ben CAT=$TOKEN_cat

say "Ann creates a 3-seat Pick Pic game (she takes seat 0); the others join; Ann starts it"
AUTH=$ANN call POST /games/ '{"kind":"pickpic","seats":3,"options":{"target":3}}'
expect 201
check 'd["status"] == "open" and d["your_seat"] == 0 and d["seed"] is None and len(d["seed_hash"]) == 64'
GAME=$(json 'd["id"]')
SEED_HASH=$(json 'd["seed_hash"]')
AUTH=$BEN call POST "/games/$GAME/join/";  expect 200; check 'd["your_seat"] == 1'
AUTH=$CAT call POST "/games/$GAME/join/";  expect 200; check 'd["your_seat"] == 2'
AUTH=$CAT call POST "/games/$GAME/join/";  expect 409; check 'd["code"] == "already_joined"'
AUTH=$ANN call POST "/games/$GAME/start/"; expect 200
check 'd["status"] == "active" and d["active_seats"] == [0, 1, 2]'
VERSION=$(json 'd["version"]')

say "Each player sees the game as they may: Ann sees her own hand, nobody else's"
AUTH=$ANN call GET "/games/$GAME/"
expect 200
check 'd["state"]["phase"] == "give" and d["state"]["you"]["seat"] == 0 and len(d["state"]["you"]["hand"]) > 0'
check '"hands" not in d["state"]'
ETAG=$(header ETag)
AUTH=$ANN call GET "/games/$GAME/" "" -H "If-None-Match: $ETAG"
expect 304                                   # nothing changed since: no body

say "Legal moves: every move Ann may post now, as it is"
AUTH=$ANN call GET "/games/$GAME/legal-moves/"
expect 200
check 'd["seat"] == 0 and d["version"] == '"$VERSION"' and d["moves"][0]["type"] == "give"'
MOVE=$(json 'd["moves"][0]')

say "A move names the version it was decided on; an Idempotency-Key makes it safe to retry"
AUTH=$ANN call POST "/games/$GAME/moves/" "{\"move\":$MOVE,\"expected_version\":$VERSION}" -H "Idempotency-Key: ann-r1-give"
expect 201
check 'd["version"] == '"$((VERSION + 1))"' and d["state"]["done"][0] is True'
AUTH=$ANN call POST "/games/$GAME/moves/" "{\"move\":$MOVE,\"expected_version\":$VERSION}" -H "Idempotency-Key: ann-r1-give"
expect 201                                   # the same answer again, nothing written twice
[ "$(header Idempotent-Replayed)" = "true" ] || { echo "FAILED: no Idempotent-Replayed header" >&2; exit 1; }

say "Ben decided on version $VERSION; the game moved on: 409 with the current version"
AUTH=$BEN call GET "/games/$GAME/legal-moves/"
BEN_MOVE=$(json 'd["moves"][0]')
AUTH=$BEN call POST "/games/$GAME/moves/" "{\"move\":$BEN_MOVE,\"expected_version\":$VERSION}"
expect 409
check 'd["code"] == "version_conflict" and d["version"] == '"$((VERSION + 1))"
AUTH=$BEN call POST "/games/$GAME/moves/" '{"move":{"type":"give","gifts":{"0":[999],"2":[998]}},"expected_version":'"$((VERSION + 1))"'}'
expect 400
check 'd["code"] == "illegal_move"'
AUTH=$BEN call POST "/games/$GAME/moves/" "{\"move\":$BEN_MOVE,\"expected_version\":$((VERSION + 1))}"
expect 201

say "The log shows each caller what they may see (here: from event $VERSION on)"
AUTH=$ANN call GET "/games/$GAME/events/?after=$VERSION"
expect 200
check '[e["type"] for e in d["events"]] == ["CardsGiven", "CardsGiven"] and "gifts" in d["events"][0]'
check '"gifts" not in d["events"][1]'        # Ben's gift stays secret from Ann until evaluation

say "Everyone plays their first legal move until the game is over"
for _ in $(seq 1 300); do
    AUTH=$ANN call GET "/games/$GAME/"
    [ "$(json 'd["status"]')" = "finished" ] && break
    for token in "$ANN" "$BEN" "$CAT"; do
        AUTH=$token call GET "/games/$GAME/legal-moves/"
        expect 200
        body=$(json 'json.dumps({"move": d["moves"][0], "expected_version": d["version"]}) if d["moves"] else ""')
        if [ -n "$body" ]; then
            AUTH=$token call POST "/games/$GAME/moves/" "$body"
            expect 201
        fi
    done
done

say "The game publishes its result and its seed: anyone can check sha256(seed) == seed_hash"
AUTH=$ANN call GET "/games/$GAME/"
expect 200
check 'd["status"] == "finished" and d["result"]["winners"] and max(d["result"]["scores"]) >= 3'
SEED=$(json 'd["seed"]')
CHECKED=$(python3 -c 'import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())' "$SEED")
[ "$CHECKED" = "$SEED_HASH" ] || { echo "FAILED: sha256(seed) != seed_hash" >&2; exit 1; }
echo "sha256(seed) == seed_hash: $SEED_HASH"
AUTH=$BEN call GET /notifications/unread-count/
expect 200
check 'd["unread"] >= 1'

say "Done: game $GAME finished"
