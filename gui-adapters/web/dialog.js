// The new-game dialog: the game, its rule options (from the engine's `option` lines:
// `<Game>_<Switch>`; check → checkbox, combo → list, spin → number), who plays, the engine's
// level (its Level values and ratings; the server's moderate default rating chosen until the
// person picks another) and the time per move.

const $ = (id) => document.getElementById(id);

let setup = null;
let current = null;
let start = null;

/** "BoardSize" → "board size". */
function label(name) {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function ruleOptions(game) {
  const prefix = `${game}_`;
  return setup.options.filter((o) => o.name.toLowerCase().startsWith(prefix) && o.type !== 'button');
}

function field(option, value) {
  const wrap = document.createElement('label');
  wrap.textContent = `${label(option.name.slice(option.name.indexOf('_') + 1))} `;
  let input;
  if (option.type === 'check') {
    input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = String(value).toLowerCase() === 'true';
  } else if (option.type === 'combo') {
    input = document.createElement('select');
    for (const v of option.vars) input.add(new Option(v, v));
    input.value = option.vars.find((v) => v.toLowerCase() === String(value).toLowerCase()) ?? option.default;
  } else {
    input = document.createElement('input');
    input.type = option.type === 'spin' ? 'number' : 'text';
    if (option.min !== null) input.min = option.min;
    if (option.max !== null) input.max = option.max;
    input.value = value;
  }
  input.dataset.option = option.name;
  input.dataset.kind = option.type;
  wrap.append(input);
  return wrap;
}

function showOptions() {
  const game = $('ng-game').value;
  const box = $('ng-options');
  const legend = box.querySelector('legend');
  const values = current && current.game === game ? current.options : {};
  const fields = ruleOptions(game).map((o) => field(o, values[o.name] ?? o.default));
  box.replaceChildren(legend, ...fields);
  box.hidden = fields.length === 0;
}

function levelChoice() {
  const level = setup.options.find((o) => o.name.toLowerCase() === 'level' && o.type === 'combo');
  $('ng-level-label').hidden = !level;
  return level;
}

/** The server's setup of `game`: its sides, its own rating range (`elo`) and default level. */
const gameSetup = (game) => setup.games.find((g) => g.name === game) ?? {};

/**
 * The level choices of `game`: the engine's `Level` values, and when it has
 * `UCI_LimitStrength` and `UCI_Elo`, ratings within the game's own range (each game is rated
 * on its own scale) every 200 points (value `elo N`), weakest first, between its weakest
 * `Level` values and full strength; the game's default says so.
 */
function levelOptions(level, game) {
  const limit = setup.options.find((o) => o.name.toLowerCase() === 'uci_limitstrength');
  const own = gameSetup(game);
  const elo = own.elo ?? setup.options.find((o) => o.name.toLowerCase() === 'uci_elo' && o.type === 'spin');
  const fallback = own.default_level ?? setup.default_level;
  const ratings = [];
  if (limit && elo && elo.min != null && elo.max != null) {
    for (let r = Math.ceil(elo.min / 200) * 200; r <= elo.max; r += 200) ratings.push(r);
  }
  const options = level.vars.map((v) => new Option(v, v));
  const full = level.vars.indexOf('full');
  const rated = ratings.map((r) => new Option(
    `elo ${r}` === fallback ? `rating ${r} (default)` : `rating ${r}`, `elo ${r}`,
  ));
  options.splice(full < 0 ? options.length : full, 0, ...rated);
  return options;
}

/**
 * Fills the level list for the game chosen, keeping the level chosen where the new list has
 * it (`wanted`: the level to choose, else the one chosen now), else the game's default.
 */
function showLevels(wanted = null) {
  const level = levelChoice();
  if (!level) return;
  const game = $('ng-game').value;
  const select = $('ng-level');
  const keep = wanted ?? select.value;
  select.replaceChildren(...levelOptions(level, game));
  const values = [...select.options].map((o) => o.value);
  const fallback = gameSetup(game).default_level ?? setup.default_level ?? level.default;
  select.value = values.includes(keep) ? keep : fallback;
  $('ng-rating-note').hidden = !values.some((v) => v.startsWith('elo '));
}

/** The level and the time per move are the engine's: off for two people. A rating plays a
 * number of nodes, so the time per move changes nothing there and is off too. */
function engineFields() {
  const engine = $('ng-mode').value !== 'hh';
  $('ng-level').disabled = !engine;
  $('ng-movetime').disabled = !engine || $('ng-level').value.startsWith('elo ');
}

/** Fills the dialog with the current game's settings and opens it. */
export function openNewGame(state) {
  current = state;
  if (state) {
    $('ng-game').value = state.game;
    $('ng-mode').value = state.mode;
    $('ng-movetime').value = state.movetime;
    showLevels(state.level ?? gameSetup(state.game).default_level ?? null);
  }
  showOptions();
  engineFields();
  $('new-dialog').showModal();
}

function collect() {
  const options = {};
  for (const input of $('ng-options').querySelectorAll('[data-option]')) {
    options[input.dataset.option] = input.dataset.kind === 'check' ? String(input.checked) : input.value;
  }
  const body = {
    game: $('ng-game').value,
    options,
    mode: $('ng-mode').value,
    movetime: Number($('ng-movetime').value) || 1000,
  };
  if (levelChoice()) body.level = $('ng-level').value;
  return body;
}

/** Builds the dialog from the server's setup; `onStart(body)` resolves true on success. */
export function initNewGame(serverSetup, onStart) {
  setup = serverSetup;
  start = onStart;
  const games = $('ng-game');
  games.replaceChildren(...setup.games.map((g) => new Option(g.name[0].toUpperCase() + g.name.slice(1), g.name)));
  showLevels();
  games.addEventListener('change', () => { showOptions(); showLevels(); engineFields(); });
  $('ng-mode').addEventListener('change', engineFields);
  $('ng-level').addEventListener('change', engineFields);
  $('ng-cancel').addEventListener('click', () => $('new-dialog').close());
  $('new-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (await start(collect())) $('new-dialog').close();
  });
}
