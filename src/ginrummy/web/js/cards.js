// Card text and card art. Cards are their protocol notation: rank then suit ("7h", "Td").
import { t } from "./i18n.js";

/** @type {Record<string, string>} */
export const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };
/** @type {Record<string, string>} */
const RANK_LABELS = { T: "10" };

/** @param {string} code */
export function rankOf(code) {
  return code[0].toUpperCase();
}

/** @param {string} code */
export function suitOf(code) {
  return code[code.length - 1].toLowerCase();
}

/**
 * The card in words in the page language: "7 of hearts", "Pik Dame".
 * @param {string} code
 */
export function cardName(code) {
  const rank = rankOf(code);
  const rankWord = "AJQKT".includes(rank) ? t(`rank.${rank}`) : rank;
  return t("card.name", { rank: rankWord, suit: t(`suit.${suitOf(code)}`) });
}

/**
 * What a card's face shows in its corner: "7♥", "K♠", "10♦" (the same in every language).
 * @param {string} code
 */
export function cardLabel(code) {
  return `${rankLabel(code)}${SUIT_SYMBOLS[suitOf(code)]}`;
}

/**
 * The name of a control that shows a card: what the face shows first, then the card in
 * words ("K♠, King of spades"), so that the name begins with the visible label (WCAG 2.5.3:
 * a voice-control user says what they see).
 * @param {string} code
 */
export function cardControlName(code) {
  return t("card.control", { label: cardLabel(code), name: cardName(code) });
}

/** @param {string[]} codes */
export function cardList(codes) {
  return codes.map(cardName).join(", ");
}

// The orders the hand's sort buttons give (ace low, as in runs): by suit with black and
// red alternating (♣ ♦ ♠ ♥), each suit by rank; or by rank, equal ranks in that suit order.
const RANK_ORDER = "A23456789TJQK";
const SUIT_ORDER = "cdsh";

/** @param {string} code */
const rankPlace = (code) => RANK_ORDER.indexOf(rankOf(code));
/** @param {string} code */
const suitPlace = (code) => SUIT_ORDER.indexOf(suitOf(code));

/**
 * @param {string[]} codes
 * @returns {string[]}
 */
export function sortedBySuit(codes) {
  return [...codes].sort(
    (a, b) => suitPlace(a) - suitPlace(b) || rankPlace(a) - rankPlace(b),
  );
}

/**
 * @param {string[]} codes
 * @returns {string[]}
 */
export function sortedByRank(codes) {
  return [...codes].sort(
    (a, b) => rankPlace(a) - rankPlace(b) || suitPlace(a) - suitPlace(b),
  );
}

/** @param {string} code */
export function rankLabel(code) {
  const rank = rankOf(code);
  return RANK_LABELS[rank] ?? rank;
}

const SVG_NS = "http://www.w3.org/2000/svg";

// Suit shapes drawn for this project in a 20 x 20 box (no font needed).
/** @type {Record<string, string[]>} */
const SUIT_PATHS = {
  h: ["M10 18.5C-5 8 2.5-3 10 5C17.5-3 25 8 10 18.5Z"],
  d: ["M10 0.5L18.5 10L10 19.5L1.5 10Z"],
  s: [
    "M10 0.5C3 8-0.5 11 2 14.8C4 17.5 7.6 16.6 8.8 14.4L7.4 19.5H12.6L11.2 14.4C12.4 16.6 16 17.5 18 14.8C20.5 11 17 8 10 0.5Z",
  ],
  c: [
    "M10 1.2a4.4 4.4 0 1 1 0 8.8a4.4 4.4 0 1 1 0-8.8Z",
    "M5 7.2a4.4 4.4 0 1 1 0 8.8a4.4 4.4 0 1 1 0-8.8Z",
    "M15 7.2a4.4 4.4 0 1 1 0 8.8a4.4 4.4 0 1 1 0-8.8Z",
    "M8.9 10L7.4 19.5H12.6L11.1 10Z",
  ],
};

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function suitShape(suit, x, y, size) {
  const g = document.createElementNS(SVG_NS, "g");
  const scale = size / 20;
  g.setAttribute(
    "transform",
    `translate(${x - size / 2} ${y - size / 2}) scale(${scale})`,
  );
  g.classList.add("pip");
  for (const d of SUIT_PATHS[suit]) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    g.append(path);
  }
  return g;
}

// The big letter in a face card's frame, drawn as strokes (centred on x = 37, from y = 40
// to 56) rather than written: a card's only text is its corner index, so that a control
// showing a card shows the text its name begins with ("Q♠, Queen of spades"; WCAG 2.5.3),
// not "Q" twice.
/** @type {Record<string, string>} */
const FACE_LETTERS = {
  J: "M35 40H43M40.5 40V50.5C40.5 54.2 38.6 55.6 36.2 55.6C33.6 55.6 32 54 31.6 51.6",
  Q: "M37 39.6C29.6 39.6 29.6 55.4 37 55.4C44.4 55.4 44.4 39.6 37 39.6ZM38.6 50.8L43.6 56.6",
  K: "M32 39.6V55.6M42.6 39.6L32.4 50.4M35.6 47L43 55.6",
};

/** @param {string} rank  J, Q or K */
function faceLetter(rank) {
  const el = document.createElementNS(SVG_NS, "path");
  el.setAttribute("d", FACE_LETTERS[rank]);
  el.classList.add("card-letter");
  return el;
}

/**
 * The face of a card: a small SVG made for this project (corner indices, big centre).
 * @param {string} code
 */
export function cardFace(code) {
  const suit = suitOf(code);
  const rank = rankLabel(code);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("card-art", `suit-${suit}`);
  const bg = document.createElementNS(SVG_NS, "rect");
  bg.setAttribute("x", "0.75");
  bg.setAttribute("y", "0.75");
  bg.setAttribute("width", "58.5");
  bg.setAttribute("height", "82.5");
  bg.setAttribute("rx", "5");
  bg.classList.add("card-bg");
  svg.append(bg);
  const index = document.createElementNS(SVG_NS, "text");
  index.setAttribute("x", "4");
  index.setAttribute("y", "17");
  index.setAttribute("font-size", rank.length > 1 ? "15" : "18");
  index.setAttribute("font-weight", "700");
  index.classList.add("card-index");
  index.textContent = rank;
  svg.append(index);
  svg.append(suitShape(suit, 11, 27, 13));
  const face = "JQK".includes(rank);
  if (face) {
    const frame = document.createElementNS(SVG_NS, "rect");
    frame.setAttribute("x", "19");
    frame.setAttribute("y", "30");
    frame.setAttribute("width", "36");
    frame.setAttribute("height", "48");
    frame.setAttribute("rx", "3");
    frame.classList.add("card-frame");
    svg.append(frame);
    svg.append(faceLetter(rank));
    svg.append(suitShape(suit, 37, 68, 13));
  } else {
    svg.append(suitShape(suit, 37, 56, rank === "A" ? 34 : 28));
  }
  return svg;
}

/**
 * A card element (no semantics of its own; the caller names it).
 * @param {string} code
 * @param {{small?: boolean}} [options]
 */
export function cardElement(code, { small = false } = {}) {
  const el = document.createElement("span");
  el.className = `card face suit-${suitOf(code)}${small ? " small" : ""}`;
  el.dataset.card = code;
  el.dataset.label = cardLabel(code); // what the face shows (tests compare names with it)
  el.append(cardFace(code));
  return el;
}

/** @param {{small?: boolean}} [options] */
export function cardBack({ small = false } = {}) {
  const el = document.createElement("span");
  el.className = `card back${small ? " small" : ""}`;
  return el;
}
