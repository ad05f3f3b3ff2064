// A typed TypeScript client (openapi-typescript's types + openapi-fetch) plays one whole game
// against a live server: node dist/play.js BASE_URL KIND SEATS. tests/api/test_typescript_client.py
// generates schema.d.ts from the served document, compiles this with tsc --strict and runs it:
// a response or request that strays from the document fails to compile or fails here.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Client = ReturnType<typeof createClient<paths>>;
type Move = components["schemas"]["Move"];
type Game = components["schemas"]["GameDetailOut"];

const [base, kind, seatsArg] = process.argv.slice(2);
if (!base || !kind || !seatsArg) throw new Error("usage: play.js BASE_URL KIND SEATS");
const seats = Number(seatsArg);
let seed = 20261202;
const random = (n: number): number => {  // a fixed sequence: the same game every run
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};

function connect(token?: string): Client {
  return createClient<paths>({ baseUrl: base, headers: token ? { Authorization: `Token ${token}` } : {} });
}

function must<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

async function register(name: string): Promise<Client> {
  const created = must(await connect().POST("/api/v1/accounts/register/", {
    body: { username: name, password: "correct horse battery" } }), "register");
  return connect(created.token);
}

async function main(): Promise<void> {
  const run = Date.now().toString(36);
  const players: Client[] = [];
  for (let n = 0; n < seats; n++) players.push(await register(`ts-${kind}-${run}-${n}`));
  const [creator, ...others] = players as [Client, ...Client[]];
  const created = must(await creator.POST("/api/v1/games/", {
    body: { kind: kind as components["schemas"]["CreateGameInRequest"]["kind"], seats } }), "create");
  const path = { params: { path: { game_id: created.id } } };
  for (const other of others) must(await other.POST("/api/v1/games/{game_id}/join/", path), "join");
  must(await creator.POST("/api/v1/games/{game_id}/start/", path), "start");

  let moves = 0;
  let game: Game;
  for (;;) {
    game = must(await creator.GET("/api/v1/games/{game_id}/", path), "game");
    if (game.status !== "active") break;
    const seat = game.active_seats[random(game.active_seats.length)];
    const mover = seat === undefined ? undefined : players[seat];
    if (mover === undefined) throw new Error(`no client for seat ${seat}`);
    const listed = must(await mover.GET("/api/v1/games/{game_id}/legal-moves/", path), "legal moves");
    const move: Move | undefined = listed.moves[random(listed.moves.length)];
    if (move === undefined) throw new Error(`seat ${seat} has no legal move`);
    const answer = must(await mover.POST("/api/v1/games/{game_id}/moves/", {
      ...path, body: { move, expected_version: listed.version } }), "move");
    if (answer.version !== listed.version + 1 && answer.version <= listed.version) {
      throw new Error(`the version did not move: ${answer.version}`);
    }
    moves += 1;
    if (moves > 3000) throw new Error("the game did not end");
  }
  const result = game.result;
  const winners = result !== null && "winners" in result ? result.winners : null;
  const log = must(await players[0]!.GET("/api/v1/games/{game_id}/events/", {
    params: { path: { game_id: created.id }, query: { limit: 1000 } } }), "events");
  console.log(JSON.stringify({ kind: game.kind, status: game.status, moves, version: game.version,
                               events: log.events.length, winners }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
