#!/usr/bin/env node
// A minimal Hearts engine in JavaScript, judged by hearts-ref over the stdio protocol
// (spec/protocol/README.md): the default rules, four players. Judge it with
//
//     hearts-ref conform --engine "node minimal-engine.js"
//
// One JSON command per line on stdin, one JSON reply per line on stdout; nothing else
// is written to stdout. Each refusal names the rule ID that forbids the move.
"use strict";
const readline = require("readline");

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const DECK = [].concat(...["C", "D", "S", "H"].map((s) => RANKS.map((r) => r + s)));  // the runner's card order
const PASS_OFFSET = { left: 1, right: 3, across: 2, none: 0 };  // to the seat that many places clockwise
// The defaults this engine plays; other values are declined as "unsupported".
const DEFAULTS = {
  players: 4, first_trick_points: "exception", can_lead_any_club: false, hearts_broken_by: "discard",
  qs_breaks_hearts: false, must_break_hearts: true, hearts_restriction: "lead",
  can_lead_hearts_instead_of_qs: false, moon: "add", jd_bonus: false, avoid_all_tricks_bonus: false,
  end_comparison: ">=", ties: "shared",
};

const suit = (card) => card.slice(-1);
const rank = (card) => RANKS.indexOf(card.slice(0, -1));
const points = (card) => (card === "QS" ? 13 : suit(card) === "H" ? 1 : 0);
const sorted = (cards) => DECK.filter((card) => cards.includes(card));

class Refusal extends Error {
  constructor(kind, message, rule) { super(message); this.kind = kind; this.rule = rule; }
}
const illegal = (message, rule) => new Refusal("illegal", message, rule);

let game = null;

function newGame(rules) {
  for (const [name, value] of Object.entries(DEFAULTS)) {
    if (rules[name] !== value) throw new Refusal("unsupported", `${name}=${JSON.stringify(rules[name])} is not supported`);
  }
  game = { threshold: rules.end_threshold, maxRounds: rules.max_rounds, totals: [0, 0, 0, 0], rounds: 0,
           roundScores: null, phase: "round-over", points: [0, 0, 0, 0], trick: [], broken: false };
}

function startRound(hands, direction) {
  if (game.phase === "game-over") throw illegal("the game is over", "END-THRESHOLD");
  if (game.phase !== "round-over") throw illegal("a round is still being played", "DEAL-HANDS");
  const all = new Set([].concat(...hands));
  if (hands.length !== 4 || hands.some((h) => h.length !== 13) || all.size !== 52 || !DECK.every((c) => all.has(c))) {
    throw illegal("four hands of 13 cards, each card once", "DEAL-HANDS");
  }
  Object.assign(game, { hands: hands.map((h) => [...h]), offset: PASS_OFFSET[direction], chosen: [null, null, null, null],
                        trick: [], tricksPlayed: 0, broken: false, points: [0, 0, 0, 0] });
  game.phase = game.offset ? "pass" : "play";
  if (!game.offset) beginPlay();
}

function passCards(seat, cards) {
  if (game.phase !== "pass") throw illegal("no pass in this round", "PASS-CYCLE");
  const seated = Number.isInteger(seat) && seat >= 0 && seat < 4;
  if (seated && game.chosen[seat] !== null) throw illegal("this seat has already chosen", "PASS-SIMULTANEOUS");
  if (!seated || cards.length !== 3 || !cards.every((c) => game.hands[seat].includes(c))) {
    throw illegal("pass exactly three cards of your own hand", "PASS-COUNT");
  }
  game.chosen[seat] = cards;
  if (game.chosen.every((c) => c !== null)) {  // the cards change hands once every seat has chosen
    const kept = game.hands.map((hand, s) => hand.filter((c) => !game.chosen[s].includes(c)));
    game.hands = kept.map((hand, s) => hand.concat(game.chosen[(s + 4 - game.offset) % 4]));
    beginPlay();
  }
}

function beginPlay() {
  game.phase = "play";
  game.toMove = game.leader = game.hands.findIndex((hand) => hand.includes("2C"));  // LEAD-OPEN
}

function legal() {
  const hand = game.hands[game.toMove];
  if (game.trick.length === 0) {
    if (game.tricksPlayed === 0) return ["2C"];                                  // LEAD-OPEN
    const safe = hand.filter((c) => suit(c) !== "H");
    return game.broken || safe.length === 0 ? hand : safe;                       // LEAD-HEARTS
  }
  const same = hand.filter((c) => suit(c) === suit(game.trick[0]));
  if (same.length) return same;                                                  // FOLLOW-SUIT
  if (game.tricksPlayed === 0) {
    const safe = hand.filter((c) => points(c) === 0);
    return safe.length ? safe : hand;                                            // FIRST-NO-POINTS, FIRST-EXCEPTION
  }
  return hand;                                                                   // FOLLOW-VOID
}

function refusal(card) {
  const hand = game.hands[game.toMove];
  if (!hand.includes(card)) return "TRICK-ORDER";
  if (game.trick.length === 0) return game.tricksPlayed === 0 ? "LEAD-OPEN" : "LEAD-HEARTS";
  if (hand.some((c) => suit(c) === suit(game.trick[0]))) return "FOLLOW-SUIT";
  return "FIRST-NO-POINTS";
}

function play(card, seat) {
  if (game.phase !== "play") throw illegal(`no card can be played in the ${game.phase} phase`, "TRICK-ORDER");
  if (seat !== undefined && seat !== game.toMove) throw illegal(`seat ${seat} may not play: it is seat ${game.toMove}'s turn`, "TRICK-ORDER");
  if (!legal().includes(card)) throw illegal(`${card} may not be played`, refusal(card));
  game.hands[game.toMove] = game.hands[game.toMove].filter((c) => c !== card);
  if (suit(card) === "H" && game.trick.length && suit(game.trick[0]) !== "H") game.broken = true;  // BREAK-DISCARD
  game.trick.push(card);
  game.toMove = (game.toMove + 1) % 4;
  if (game.trick.length === 4) finishTrick();
}

function finishTrick() {
  const led = suit(game.trick[0]);
  const best = game.trick.filter((c) => suit(c) === led).reduce((a, b) => (rank(b) > rank(a) ? b : a));
  const winner = (game.leader + game.trick.indexOf(best)) % 4;                   // TRICK-WINNER
  game.points[winner] += game.trick.reduce((sum, c) => sum + points(c), 0);
  Object.assign(game, { trick: [], leader: winner, toMove: winner });            // LEAD-WINNER
  game.tricksPlayed += 1;
  if (game.tricksPlayed === 13) finishRound();
}

function finishRound() {
  let scores = [...game.points];
  if (scores.includes(26)) scores = scores.map((p) => (p === 26 ? 0 : 26));      // SCORE-MOON
  game.roundScores = scores;
  game.totals = game.totals.map((t, s) => t + scores[s]);
  game.rounds += 1;
  game.broken = false;
  const ended = Math.max(...game.totals) >= game.threshold || game.rounds === game.maxRounds;  // END-THRESHOLD
  game.phase = ended ? "game-over" : "round-over";
}

function observation() {
  const playing = game.phase === "pass" || game.phase === "play";
  const toMove = game.phase === "pass" ? game.chosen.indexOf(null) : game.phase === "play" ? game.toMove : null;
  const over = game.phase === "game-over";
  const low = Math.min(...game.totals);
  return { phase: game.phase, to_move: toMove, trick: playing ? game.trick : [], hearts_broken: game.broken && playing,
           points_taken: game.points, round_scores: game.roundScores, totals: game.totals, game_over: over,
           winners: over ? [0, 1, 2, 3].filter((s) => game.totals[s] === low) : [] };
}

function step() {
  return { observation: observation(), legal: game.phase === "play" ? sorted(legal()) : [] };
}

function answer(request) {
  switch (request.cmd) {
    case "hello":
      if (request.protocol !== 1) throw new Refusal("unsupported", `protocol ${request.protocol}; this engine speaks 1`);
      return { protocol: 1, name: "minimal-js", version: "1.0",
               capabilities: { multi_round: true, passing: true, unsupported: {}, known_deviations: [], play_seat: true } };
    case "new_game": newGame(request.rules); return step();
    case "start_round": startRound(request.hands, request.direction); return step();
    case "pass": passCards(request.seat, request.cards); return step();
    case "play": play(request.card, request.seat); return step();
    case "legal": return { legal: step().legal };
    case "observe": return { observation: observation() };
    case "quit": return {};
    default: throw new Refusal("bad-request", `unknown command ${JSON.stringify(request.cmd)}`);
  }
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  let request = {};
  let reply;
  try {
    request = JSON.parse(line);
    reply = { seq: request.seq, ok: true, ...answer(request) };
  } catch (error) {
    const kind = error instanceof Refusal ? error.kind : error instanceof SyntaxError ? "bad-request" : "internal";
    reply = { seq: Number.isInteger(request.seq) ? request.seq : null, ok: false,
              error: { kind, message: error.message, ...(error.rule ? { rule: error.rule } : {}) } };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
  if (request.cmd === "quit") process.exit(0);
});
