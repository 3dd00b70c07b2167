// The verify page's texts in German and English (the page loads no catalog over the
// network, so it works offline once loaded). Keys as in web/js/i18n/*.json, a count's
// singular as `key.one` (i18n.js tn).
import { t, tn } from "../i18n.js";

/** @type {Record<"de"|"en", Record<string, string>>} */
export const TEXTS = {
  en: {
    "page.title": "Check a deal – Gin Rummy",
    heading: "Check that the deals were fair",
    intro:
      "Before each deal the server committed to a secret seed; both seats added seeds of their own. Paste a match record or open a downloaded one: this page recomputes every deck in your browser and compares it with the record. Nothing is sent anywhere.",
    "paste.label": "Match record (JSON)",
    "file.label": "Or open a record file",
    verify: "Check the deals",
    checking: "Checking …",
    empty: "Paste a record or open a file first.",
    "bad.json": "This is not JSON: {message}",
    malformed: "The record is malformed at {field}: {message}",
    "all.ok": "All {total} deals are fair.",
    "all.ok.one": "The deal is fair.",
    "some.failed": "{failed} of {total} deals fail the check.",
    "some.failed.one": "1 of {total} deals fails the check.",
    "single.failed": "The deal fails the check.",
    "round.ok": "Round {round}: fair – the deck follows from the seeds.",
    "round.unrevealed": "Round {round}: the server has not revealed its seed yet.",
    "round.commitment":
      "Round {round}: the revealed server seed does not match the commitment shown before the deal.",
    "round.context":
      "Round {round}: the seeds were made for another room, match or round.",
    "round.deck": "Round {round}: the recorded deck is not the one the seeds give.",
    details: "Details: {reason}",
    "replay.note":
      "This page checks the decks. To check also that every dealt hand, upcard and stock draw came from them and that every move was legal, run: ginrummy verify record.json",
    "own.held": "Round {round}: the record holds the seed this browser sent.",
    "own.missing": "Round {round}: the record does not hold the seed this browser sent!",
    "own.phrase":
      "Round {round}: your seat's seed in the record is the one your seed phrase gives.",
    "link.bad": "The link names no record of this server.",
    "link.failed": "The record could not be loaded: {message}",
    "lang.label": "Language",
    skip: "Skip to content",
  },
  de: {
    "page.title": "Austeilen prüfen – Gin Rummy",
    heading: "Prüfen, ob fair ausgeteilt wurde",
    intro:
      "Vor jedem Austeilen hat sich der Server auf einen geheimen Startwert festgelegt; beide Plätze haben eigene Startwerte beigesteuert. Füge ein Partie-Protokoll ein oder öffne ein heruntergeladenes: Diese Seite berechnet jedes Kartenspiel in deinem Browser neu und vergleicht es mit dem Protokoll. Es wird nichts verschickt.",
    "paste.label": "Partie-Protokoll (JSON)",
    "file.label": "Oder eine Protokoll-Datei öffnen",
    verify: "Austeilen prüfen",
    checking: "Prüfe …",
    empty: "Füge zuerst ein Protokoll ein oder öffne eine Datei.",
    "bad.json": "Das ist kein JSON: {message}",
    malformed: "Das Protokoll ist fehlerhaft bei {field}: {message}",
    "all.ok": "Alle {total} Austeilungen sind fair.",
    "all.ok.one": "Die Austeilung ist fair.",
    "some.failed": "{failed} von {total} Austeilungen bestehen die Prüfung nicht.",
    "some.failed.one": "1 von {total} Austeilungen besteht die Prüfung nicht.",
    "single.failed": "Die Austeilung besteht die Prüfung nicht.",
    "round.ok": "Runde {round}: fair – das Kartenspiel folgt aus den Startwerten.",
    "round.unrevealed":
      "Runde {round}: Der Server hat seinen Startwert noch nicht offengelegt.",
    "round.commitment":
      "Runde {round}: Der offengelegte Startwert des Servers passt nicht zur Festlegung vor dem Austeilen.",
    "round.context":
      "Runde {round}: Die Startwerte gehören zu einem anderen Raum, einer anderen Partie oder Runde.",
    "round.deck":
      "Runde {round}: Das protokollierte Kartenspiel ist nicht das aus den Startwerten.",
    details: "Einzelheiten: {reason}",
    "replay.note":
      "Diese Seite prüft die Kartenspiele. Ob auch jede ausgeteilte Hand, die offene Karte und jede Karte vom Stapel daraus stammen und jeder Zug erlaubt war, prüft: ginrummy verify protokoll.json",
    "own.held":
      "Runde {round}: Das Protokoll enthält den Startwert, den dieser Browser geschickt hat.",
    "own.missing":
      "Runde {round}: Das Protokoll enthält den Startwert nicht, den dieser Browser geschickt hat!",
    "own.phrase":
      "Runde {round}: Der Startwert deines Platzes im Protokoll ist der aus deiner Startwert-Phrase.",
    "link.bad": "Der Link nennt kein Protokoll dieses Servers.",
    "link.failed": "Das Protokoll ließ sich nicht laden: {message}",
    "lang.label": "Sprache",
    skip: "Zum Inhalt springen",
  },
};

/**
 * The summary line: every deal fair, or how many of them failed (a single deal in words).
 * @param {number} failed  @param {number} total
 */
export function verdictText(failed, total) {
  if (!failed) return tn("all.ok", total, { total });
  return total === 1 ? t("single.failed") : tn("some.failed", failed, { failed, total });
}
