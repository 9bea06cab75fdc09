// The single entry: routes on location.pathname. `/` is the lobby, `/m/{id}` a match, `/t/...`
// the tournament pages.

import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './style.css';
import { fill, h } from './dom';
import { matchIdFromPath } from './helpers';
import { renderLobby } from './lobby';
import { renderMatch } from './match';
import { renderTournament } from './tournament';
import { tournamentRoute } from './tournamentTypes';

const root = document.getElementById('app')!;
const path = location.pathname;
const matchId = matchIdFromPath(path);
const tournament = tournamentRoute(path);

if (path === '/' || path === '/index.html') renderLobby(root);
else if (matchId) renderMatch(root, matchId);
else if (tournament) renderTournament(root, tournament);
else
  fill(
    root,
    h('header', { class: 'top' }, h('h1', {}, h('a', { href: '/' }, 'Bughouse'))),
    h('main', { class: 'notfound' }, h('h2', {}, 'Page not found'), h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))),
  );
