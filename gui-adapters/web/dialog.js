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

/**
 * The level choices: the engine's `Level` values, and when it has `UCI_LimitStrength` and
 * `UCI_Elo`, ratings within `UCI_Elo`'s range every 200 points (value `elo N`), weakest first,
 * between its weakest `Level` values and full strength; the server's default says so.
 */
function levelOptions(level) {
  const limit = setup.options.find((o) => o.name.toLowerCase() === 'uci_limitstrength');
  const elo = setup.options.find((o) => o.name.toLowerCase() === 'uci_elo' && o.type === 'spin');
  const ratings = [];
  if (limit && elo && elo.min != null && elo.max != null) {
    for (let r = Math.ceil(elo.min / 200) * 200; r <= elo.max; r += 200) ratings.push(r);
  }
  const options = level.vars.map((v) => new Option(v, v));
  const full = level.vars.indexOf('full');
  const rated = ratings.map((r) => new Option(
    `elo ${r}` === setup.default_level ? `rating ${r} (default)` : `rating ${r}`, `elo ${r}`,
  ));
  options.splice(full < 0 ? options.length : full, 0, ...rated);
  return options;
}

function engineFields() {
  const engine = $('ng-mode').value !== 'hh';
  $('ng-level').disabled = !engine;
  $('ng-movetime').disabled = !engine;
}

/** Fills the dialog with the current game's settings and opens it. */
export function openNewGame(state) {
  current = state;
  if (state) {
    $('ng-game').value = state.game;
    $('ng-mode').value = state.mode;
    $('ng-movetime').value = state.movetime;
    const level = levelChoice();
    if (level) $('ng-level').value = state.level ?? setup.default_level ?? level.default;
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
  const level = levelChoice();
  if (level) $('ng-level').replaceChildren(...levelOptions(level));
  games.addEventListener('change', showOptions);
  $('ng-mode').addEventListener('change', engineFields);
  $('ng-cancel').addEventListener('click', () => $('new-dialog').close());
  $('new-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (await start(collect())) $('new-dialog').close();
  });
}
