// The single entry: routes on location.pathname. `/` is the lobby, `/m/{id}` a match, `/t/...`
// the tournament pages, `/player/{name}` a profile, `/leaderboard` the leaderboard.

import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.brown.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import './style.css';
import { siteHeader } from './account';
import { fill, h } from './dom';
import { matchIdFromPath } from './helpers';
import { renderLobby } from './lobby';
import { renderMatch } from './match';
import { otbRoute, renderOtb } from './otb';
import { playerFromPath, renderLeaderboard, renderProfile } from './players';
import { renderTournament } from './tournament';
import { tournamentRoute } from './tournamentTypes';

const root = document.getElementById('app')!;
const path = location.pathname;
const matchId = matchIdFromPath(path);
const tournament = tournamentRoute(path);
const player = playerFromPath(path);
const otb = otbRoute(path);

if (path === '/' || path === '/index.html') renderLobby(root);
else if (matchId) renderMatch(root, matchId);
else if (tournament) renderTournament(root, tournament);
else if (otb !== null) renderOtb(root, otb);
else if (player) renderProfile(root, player);
else if (path === '/leaderboard' || path === '/leaderboard/') renderLeaderboard(root);
else
  fill(
    root,
    siteHeader(),
    h('main', { class: 'notfound' }, h('h2', {}, 'Page not found'), h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))),
  );
