// The shapes of the protocol (docs/protocol.md) and of the client state, as JSDoc types
// for `tsc --checkJs`. Nothing here runs: modules import these names in type comments only.

/** @typedef {"one"|"two"} Seat */
/** @typedef {{one: T, two: T}} PerSeat<T> @template T */

/**
 * @typedef {object} PlayerSummary
 * @property {string} id
 * @property {string} name
 * @property {string} tag
 * @property {number|null} [rating]
 * @property {number} [rd]
 * @property {number} [rated_matches]
 * @property {number} [abandons]
 * @property {boolean} [leaver]
 * @property {boolean} [account]  an account's player, not a guest's (so it may play
 *   rated, issue 22)
 */

/**
 * A seat in `players` of a `view` or `presence` message.
 * @typedef {object} PlayerEntry
 * @property {string} name
 * @property {string|null} bot
 * @property {boolean} connected
 * @property {boolean} ready
 * @property {boolean} rematch
 * @property {PlayerSummary|null} [player]
 * @property {number|null} [grace_remaining_ms]
 * @property {boolean} [named]  `name` is how the page shows it, a computer's too (the fold
 *   named it); else a computer is called by its level in the page's language
 */

/** @typedef {PerSeat<PlayerEntry|null>} Players */

/**
 * @typedef {object} SeatInfo
 * @property {string} name
 * @property {string|null} bot
 * @property {boolean} [connected]
 * @property {PlayerSummary|null} [player]
 */

/**
 * Room info (HTTP and `welcome`).
 * @typedef {object} RoomInfo
 * @property {string} room
 * @property {"solo"|"room"} kind
 * @property {"waiting"|"playing"|"over"} status
 * @property {PerSeat<SeatInfo|null>} seats
 * @property {boolean} spectators
 * @property {boolean} [spectator_chat]
 * @property {"private"|"public"} [visibility]
 * @property {boolean} [rated]
 * @property {number|null} [timer]
 * @property {number} [watchers]
 * @property {string|null} [tournament]  the tournament this room is a match of
 * @property {string|null} [tournament_name]  that tournament's name
 * @property {number|null} [tournament_round]  the round of the tournament this match is in
 * @property {Seat|null} [your_seat]
 */

/**
 * @typedef {object} Showdown
 * @property {string[][]} knocker_melds
 * @property {string[]} knocker_deadwood_cards
 * @property {number} knocker_deadwood
 * @property {string[][]} defender_melds
 * @property {string[]} defender_deadwood_cards
 * @property {number} defender_deadwood
 * @property {{card: string, onto: string[]}[]} layoffs
 * @property {number} base_points
 * @property {number} bonus
 * @property {number} multiplier
 * @property {number} points
 */

/**
 * @typedef {object} RoundResult
 * @property {"knock"|"gin"|"big_gin"|"undercut"|"void"} kind
 * @property {Seat|null} knocker
 * @property {Seat|null} winner
 * @property {number} points
 * @property {PerSeat<string[]>} [hands]
 * @property {Showdown|null} showdown
 */

/**
 * @typedef {object} MatchResult
 * @property {Seat|null} winner
 * @property {"timeout"|"abandoned"|"resigned"|null} [forfeit]
 * @property {Seat|null} [forfeited_by]
 * @property {PerSeat<number>} [round_points]
 * @property {PerSeat<number>} [rounds_won]
 * @property {PerSeat<number>} [box_bonus]
 * @property {PerSeat<number>} [game_bonus]
 * @property {PerSeat<number>} [shutout_bonus]
 * @property {PerSeat<number>} [totals]
 */

/**
 * @typedef {object} Table
 * @property {{name?: string, target_score?: number|null, knock_limit?: number, box_bonus?: number}} [rules]
 * @property {"deal"|"round"|"over"} match_phase
 * @property {"first_upcard"|"draw"|"discard"|"last_discard"|"over"} round_phase
 * @property {number} round
 * @property {Seat|null} [dealer]
 * @property {Seat|null} turn
 * @property {number} stock_size
 * @property {string[]} discard_pile
 * @property {number} knock_limit
 * @property {boolean} [doubled]
 * @property {PerSeat<number>} hand_sizes
 * @property {PerSeat<string[]>} known
 * @property {PerSeat<number>} scores
 * @property {RoundResult|null} [result]
 * @property {{result: RoundResult|null}[]} rounds
 * @property {MatchResult|null} [match_result]
 */

/**
 * @typedef {object} Arrangement
 * @property {string[][]} melds
 * @property {string[]} deadwood_cards
 * @property {number} deadwood
 */

/**
 * @typedef {object} View
 * @property {Seat|null} seat
 * @property {string[]} hand
 * @property {Arrangement|null} arrangement
 * @property {string[]} legal_actions
 * @property {string|null} taken
 * @property {string|null} [knock_discard]
 * @property {Table} table
 */

/**
 * @typedef {object} Timer
 * @property {Seat} seat
 * @property {number} remaining_ms
 * @property {number} total_ms
 * @property {number} [at]  when it arrived (performance.now())
 */

/**
 * The fair deal of the last round (view frames' `fair`, docs/fairness.md).
 * @typedef {object} Fair
 * @property {"seeding"|"dealt"|"revealed"} state
 * @property {string} room
 * @property {number} match
 * @property {number} round
 * @property {string} commitment
 * @property {string|null} your_seed
 * @property {PerSeat<boolean>} [seeds_in]
 * @property {string|null} [server_seed]
 * @property {PerSeat<string>} [seeds]
 */

/**
 * @typedef {object} ChatMessage
 * @property {number|null} [id]
 * @property {number} [t]
 * @property {{seat: Seat|null, tag?: string, player?: string}} from
 * @property {string|null} text
 * @property {string|null} phrase
 */

/**
 * @typedef {object} Tip
 * @property {number} version
 * @property {string} action
 * @property {string} key
 * @property {Record<string, unknown>} [params]
 * @property {Record<string, string>} [text]
 */

/**
 * GET /api/config: the server's validation limits and quick phrases.
 * @typedef {object} Limits
 * @property {{min: number, max: number, pattern: string, punctuation: string}} name
 * @property {{max: number}} chat
 */
/**
 * @typedef {object} Config
 * @property {Limits} limits
 * @property {{key: string, text: Record<string, string>}[]} phrases
 */

/**
 * The tips switch as the server last told it (`tips` message), plus the shown tip.
 * @typedef {object} TipsState
 * @property {boolean} allowed
 * @property {boolean} on
 * @property {number} left
 * @property {number|null} requested  the version a tip was asked for
 * @property {Tip|null} tip
 * @property {string|null} message    a catalogue key to show
 */

/**
 * A message from the server (the fields used by the client; see docs/protocol.md).
 * @typedef {{type: string, [field: string]: any}} ServerMessage
 */

/**
 * A chouette table's public facts (docs/bot-protocol.md, Chouette): the same for everyone.
 * @typedef {object} ChouetteInfo
 * @property {number} players
 * @property {string[]} drawn          the seat draw, one card per position
 * @property {"match"|"settled"} phase
 * @property {number} number           the current (or last) match, from 1
 * @property {number} box
 * @property {number[]} order          the team in captain order
 * @property {number} captain
 * @property {number} next_captain     who is captain next (the server's: absent partners skipped)
 * @property {number[]} captains       the captain of each round dealt in this match
 * @property {number[]} absent
 * @property {number[]} ledger         per position, sums to zero
 * @property {ChouetteSettlement[]} settlements
 * @property {number|null} turn        the position that decides now
 */

/**
 * @typedef {object} ChouetteSettlement
 * @property {number} number
 * @property {number} box
 * @property {number[]} team
 * @property {MatchResult} result      seat one the box, seat two the team
 * @property {number} value
 * @property {number[]} changes        per position
 */

/**
 * A seat of a chouette room in `players` (docs/protocol.md, Chouette rooms).
 * @typedef {object} ChouettePlayer
 * @property {string} name
 * @property {string|null} bot
 * @property {boolean} connected
 * @property {boolean} ready
 * @property {boolean} next_match
 * @property {boolean} absent
 * @property {PlayerSummary|null} [player]  a person's public player (a computer: none)
 * @property {number|null} [grace_remaining_ms]
 */

/**
 * Chouette room info (HTTP and `welcome`).
 * @typedef {object} ChouetteRoomInfo
 * @property {string} room
 * @property {"chouette"} kind
 * @property {number} players
 * @property {{name?: string, target_score?: number|null}} [rules]
 * @property {"waiting"|"playing"|"settled"} status
 * @property {(SeatInfo|null)[]} seats
 * @property {boolean} spectators
 * @property {number|null} [timer]
 * @property {number} [watchers]
 * @property {number|null} [your_position]
 * @property {string} [invite_path]
 */

/**
 * A partner's suggestion to the captain (`advice` frame).
 * @typedef {object} Suggestion
 * @property {number} version
 * @property {{position: number, name: string, computer: boolean}} from
 * @property {string|null} action
 * @property {string|null} card
 */

/**
 * A text of the catalogue, with the name of a seat as its `name` (status.js sideName).
 * @typedef {object} Label
 * @property {string} key
 * @property {Seat} [seat]
 */

/**
 * How a table of more than two people shows its match through the two seats (its page's
 * fold sets it; null at a two-player table, where each seat is one person).
 * @typedef {object} Seating
 * @property {boolean} plays   whether this page plays its `seat` (false: it sees that
 *   seat's hand, and the seat is played by someone else of its side)
 * @property {PerSeat<Label>} sides   how each side of the match is called
 * @property {number} match   which match of the table this is (results.js resultKey)
 */

/**
 * What a chouette table adds to the client state: its page's own part of it, folded by
 * chouette/state.js. The table's parts of the state (`seat`, `view`, `players`, `timer`,
 * `seating`) hold its match as the shared parts draw it: seat one is the box, seat two
 * the team played by its captain.
 * @typedef {object} ChouetteState
 * @property {number|null} position       this page's player (null: watching)
 * @property {"box"|"captain"|"partner"|null} role
 * @property {ChouetteInfo|null} info
 * @property {string[]} advice            a partner's options: the captain's legal actions
 * @property {(ChouettePlayer|null)[]} players
 * @property {ChouetteRoomInfo|null} room
 * @property {Suggestion[]} suggestions   for the captain's decision now
 * @property {{messages: ChatMessage[], draft: string}} team
 * @property {{version: number, what: string}|null} sent  the last advice this page gave
 */

/**
 * @typedef {object} Route
 * @property {"home"|"room"|"chouette"|"lobby"|"player"|"leaderboard"|"tournament"|"review"|"admin"|"privacy"|"signin"|"notfound"} name
 * @property {string|null} room
 * @property {string} [player]
 * @property {string} [tournament]
 * @property {"one"|"two"} [seat]  the reviewed seat (review)
 * @property {boolean} [device]   a game on this device (/d/<id>): `room` is its id
 */

/**
 * A device game at the table (docs/device.md).
 * @typedef {object} DeviceState
 * @property {string} id
 * @property {boolean} saved          whether the last save worked (else it cannot be resumed)
 * @property {string|null} damaged    why the saved game cannot be trusted
 * @property {boolean} missing        no such game in this browser
 * @property {boolean} noBots         the computer players could not be loaded
 */

/**
 * @typedef {object} Announcement
 * @property {"move"|"presence"|"round_end"|"deal"|"forfeit"|"tips"|"text"} kind
 * @property {Seat|null} [seat]
 * @property {string} [action]
 * @property {string|null} [top]
 * @property {string} [what]
 * @property {string|null} [reason]
 * @property {boolean} [on]
 * @property {number} [left]
 * @property {string|null} [message]
 * @property {string} [text]
 */

/**
 * @typedef {object} HomeForm
 * @property {string|null} level
 * @property {number|string} soloTarget
 * @property {string} preset
 * @property {number|string} roomTarget
 * @property {string} seat2
 * @property {string} name
 * @property {number|string} [players]   2, or 3 to 5 for chouette
 * @property {string} [seat3]
 * @property {string} [seat4]
 * @property {string} [seat5]
 */

/**
 * @typedef {object} TableForm
 * @property {string} preset
 * @property {number|string} target
 * @property {string} timer
 * @property {string} [visibility]
 * @property {boolean} [rated]
 * @property {boolean} [spectators]
 * @property {boolean} [spectatorChat]
 */

/**
 * @typedef {object} LobbyState
 * @property {any} data                GET /api/lobby's body, or null
 * @property {boolean} connected
 * @property {string|null} error
 * @property {string|null} nickname    the nickname being typed
 * @property {string|null} nicknameError
 * @property {boolean} [nicknameSaved]
 * @property {boolean} [busy]
 * @property {{start: number, elapsed: number, offered: boolean}|null} quick
 * @property {{text: string, banned: boolean}|null} [conduct]   a play ban or a warning (civility.js)
 * @property {TableForm} form
 * @property {TableForm} quickForm
 */

/**
 * The whole client state (store.initialState): the last server view and a little
 * presentation state.
 * @typedef {object} State
 * @property {string} lang
 * @property {Route} route
 * @property {{levels: any[], games: any[], busy: boolean, error: string|null, form: HomeForm,
 *   deviceGames: {id: string, opponent: string|null, damaged: string|null}[],
 *   tally: import("./device/tally.js").Tally|null}} home
 * @property {DeviceState|null} device
 * @property {{phase: string, info: RoomInfo|null, error: string|null, joinName: string}} room
 * @property {Seat|null} seat
 * @property {RoomInfo|null} info
 * @property {View|null} view
 * @property {number|null} version
 * @property {Players|null} players
 * @property {{connected: boolean, retryIn?: number|null, attempt?: number, restart?: boolean, everConnected: boolean}} connection
 * @property {{version: number, seat: Seat|null, action: string|null, kind: string|null, top?: string|null}|null} animation
 *   the last event (`top`: the discard pile's top card before it)
 * @property {Announcement[]} lastMoves  the other side's moves since this seat's last (store.followMoves)
 * @property {string[]} fresh          cards just drawn
 * @property {number|null} pending     the version an own move was sent at
 * @property {string[]|null} manualOrder
 * @property {string|null} choose
 * @property {TipsState} tips
 * @property {boolean} online          whether the browser has a network (navigator.onLine)
 * @property {{code: string, message: string}|null} notice
 * @property {boolean} fourColour
 * @property {boolean} largeCards     larger cards at the table (a remembered setting)
 * @property {boolean} turnSound      a sound when the turn comes (a remembered setting; web/js/follow.js)
 * @property {boolean} deviceNoteHidden  the device note was dismissed (a remembered setting)
 * @property {boolean} settingsOpen   the top bar's settings menu is open (a narrow window)
 * @property {boolean} sheetOpen     the score sheet (sheet.js) is open
 * @property {string|null} resultClosed  the result (results.js resultKey) whose dialog the person closed
 * @property {boolean} copied
 * @property {PlayerSummary|null} me
 * @property {LobbyState} lobby
 * @property {{status: string, data: any}} page
 * @property {Config|null} config
 * @property {{messages: ChatMessage[], draft: string}} chat
 * @property {string[]} muted
 * @property {Timer|null} timer
 * @property {Fair|null} fair  the last round's fair deal (view frames)
 * @property {number|null} watchers
 * @property {number} playersAt
 * @property {boolean} claimDismissed
 * @property {boolean} confirmResign
 * @property {Seating|null} seating  a table of more than two people (else null)
 * @property {ChouetteState|null} [chouette]  a chouette table (docs/rules.md §8; its page's part)
 */

/** The state while a table is shown: its view is there. @typedef {State & {view: View}} TableState */

export {};
