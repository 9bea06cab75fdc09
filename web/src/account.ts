// Accounts in the page header: who is signed in (`GET /api/account/me`), sign in, sign up and
// sign out forms with their errors shown inline, and the links to the leaderboard and one's
// profile. The session lives in an HttpOnly cookie the page never reads; see docs/protocol.md
// ("Accounts, profiles and the leaderboard"). The JSON shapes are in ./accountTypes.ts
// (generated from crates/protocol/src/accounts.rs).

import type { AccountView, Credentials } from './accountTypes';
import { fill, h, storageGet, storageSet } from './dom';
import type { ApiError } from './protocol';

let current: Promise<AccountView | null> | null = null;
const listeners: ((account: AccountView | null) => void)[] = [];

/** Set while this browser is signed in: a guest's page never asks `me` (whose 401 the browser
 * would log as an error). The session itself is the HttpOnly cookie. */
const SIGNED_IN_KEY = 'bughouse.signedIn';

/** The signed-in account (asked once per page), or null for a guest. */
export function currentAccount(): Promise<AccountView | null> {
  if (current) return current;
  if (!storageGet(SIGNED_IN_KEY)) {
    current = Promise.resolve(null);
    return current;
  }
  current = fetch('/api/account/me', { credentials: 'same-origin' })
    .then(async res => {
      if (res.ok) return (await res.json()) as AccountView;
      // The session is gone (expired, signed out elsewhere).
      if (res.status === 401) storageSet(SIGNED_IN_KEY, null);
      return null;
    })
    .catch(() => null);
  return current;
}

/** Calls `f` now with the account, and again whenever the page signs in or out. */
export function onAccount(f: (account: AccountView | null) => void): void {
  listeners.push(f);
  void currentAccount().then(f);
}

function changed(account: AccountView | null): void {
  storageSet(SIGNED_IN_KEY, account ? '1' : null);
  current = Promise.resolve(account);
  for (const f of listeners) f(account);
}

/** The message of a refused request. */
export async function errorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as Partial<ApiError>;
    if (body.message) return body.message;
    if (body.error) return body.error;
  } catch {
    // not JSON
  }
  return `${res.status} ${res.statusText}`;
}

async function post(path: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Signs in (`login`) or up (`signup`); the account, or throws the server's message. */
export async function signIn(kind: 'login' | 'signup', username: string, password: string): Promise<AccountView> {
  const credentials: Credentials = { username, password };
  const res = await post(`/api/account/${kind}`, credentials);
  if (!res.ok) throw new Error(await errorOf(res));
  const account = (await res.json()) as AccountView;
  changed(account);
  return account;
}

export async function signOut(): Promise<void> {
  await post('/api/account/logout');
  changed(null);
}

/** A player's profile page. */
export const profileUrl = (name: string): string => `/player/${encodeURIComponent(name)}`;

/** A rating as shown: rounded, with `?` while provisional. */
export function ratingText(rating: number, provisional = false): string {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/** The page header every page but the tournaments' shares: the site's name, the leaderboard,
 * what the page adds (`extra`), the account box, and the compact account menu that stands for
 * the links and the account box where they give way (the match page on a phone). */
export function siteHeader(...extra: (Node | null)[]): HTMLElement {
  return h(
    'header',
    { class: 'top' },
    h('h1', {}, h('a', { href: '/' }, 'Bughouse')),
    h('nav', { class: 'site-links' }, h('a', { href: '/leaderboard' }, 'Leaderboard')),
    extra,
    accountBox(),
    accountMenu(),
  );
}

/** A compact menu: a button showing who is signed in (his initial; a guest's "☰") that opens
 * a list: the name and rating with the link to the profile, the lobby, the leaderboard, and
 * "Sign out" (a guest: "Sign in" in the lobby). */
export function accountMenu(): HTMLElement {
  const toggle = h('button', { type: 'button', class: 'menu-toggle', 'aria-haspopup': 'true', 'aria-expanded': 'false' });
  const list = h('div', { class: 'menu-list', role: 'menu', hidden: true });
  const menu = h('div', { class: 'account-menu' }, toggle, list);
  const close = (): void => {
    list.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
  };
  toggle.addEventListener('click', e => {
    e.stopPropagation();
    list.hidden = !list.hidden;
    toggle.setAttribute('aria-expanded', String(!list.hidden));
  });
  document.addEventListener('click', e => {
    if (!menu.contains(e.target as Node)) close();
  });
  onAccount(account => {
    menu.dataset.state = account ? 'signed-in' : 'guest';
    toggle.textContent = account ? account.username.slice(0, 1).toUpperCase() : '☰';
    toggle.setAttribute('aria-label', account ? `signed in as ${account.username}: menu` : 'menu');
    toggle.title = account ? `Signed in as ${account.username}` : 'Menu';
    const rating = account?.rating ? ratingText(account.rating.rating, account.rating.provisional) : null;
    fill(
      list,
      account
        ? h(
            'a',
            { class: 'me', role: 'menuitem', href: profileUrl(account.username) },
            h('span', { class: 'signed-in-as' }, 'Signed in as '),
            h('strong', {}, account.username),
            rating ? h('span', { class: 'my-rating' }, ` ${rating}`) : null,
          )
        : h('span', { class: 'hint' }, 'Not signed in'),
      h('a', { role: 'menuitem', href: '/' }, 'Lobby'),
      h('a', { role: 'menuitem', href: '/leaderboard' }, 'Leaderboard'),
      account
        ? h(
            'button',
            {
              type: 'button',
              class: 'link',
              role: 'menuitem',
              onclick: () => {
                close();
                void signOut();
              },
            },
            'Sign out',
          )
        : h('a', { role: 'menuitem', href: '/' }, 'Sign in (in the lobby)'),
    );
  });
  return menu;
}

/** Signed in: the name (a link to the profile), the rating and "Sign out". A guest: "Sign in"
 * and "Sign up", each opening a small form in the header. */
export function accountBox(): HTMLElement {
  const box = h('div', { class: 'account', 'data-state': 'loading' });
  const render = (account: AccountView | null): void => {
    box.dataset.state = account ? 'signed-in' : 'guest';
    if (account) {
      const rating = account.rating ? ratingText(account.rating.rating, account.rating.provisional) : null;
      fill(
        box,
        h('a', { class: 'me', href: profileUrl(account.username) }, account.username),
        rating ? h('span', { class: 'my-rating', title: 'your rating' }, rating) : null,
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: () => {
              void signOut();
            },
          },
          'Sign out',
        ),
      );
    } else {
      const form = accountForm();
      fill(
        box,
        h('button', { type: 'button', class: 'link', onclick: () => form.open('login') }, 'Sign in'),
        h('button', { type: 'button', class: 'link', onclick: () => form.open('signup') }, 'Sign up'),
        form.el,
      );
    }
  };
  onAccount(render);
  return box;
}

/** The sign-in / sign-up form: user name, password, its errors inline. */
function accountForm(): { el: HTMLElement; open: (kind: 'login' | 'signup') => void } {
  let kind: 'login' | 'signup' = 'login';
  const title = h('h2', {});
  const username = h('input', {
    id: 'account-username',
    name: 'username',
    type: 'text',
    autocomplete: 'username',
    required: true,
    maxlength: 20,
  });
  const password = h('input', {
    id: 'account-password',
    name: 'password',
    type: 'password',
    required: true,
  });
  const hint = h('p', { class: 'hint' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' });
  const close = h('button', { type: 'button', class: 'link', 'aria-label': 'close' }, '×');
  const form = h(
    'form',
    { class: 'account-form', hidden: true, novalidate: true },
    h('div', { class: 'row' }, title, close),
    h('label', { for: 'account-username' }, 'User name'),
    username,
    h('label', { for: 'account-password' }, 'Password'),
    password,
    hint,
    error,
    submit,
  );
  close.addEventListener('click', () => {
    form.hidden = true;
  });
  form.addEventListener('submit', e => {
    e.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    signIn(kind, username.value.trim(), password.value)
      .then(() => {
        form.hidden = true;
      })
      .catch((err: unknown) => {
        error.textContent = err instanceof Error ? err.message : String(err);
      })
      .finally(() => {
        submit.disabled = false;
      });
  });
  const open = (k: 'login' | 'signup'): void => {
    kind = k;
    title.textContent = k === 'login' ? 'Sign in' : 'Sign up';
    submit.textContent = k === 'login' ? 'Sign in' : 'Create account';
    password.setAttribute('autocomplete', k === 'login' ? 'current-password' : 'new-password');
    hint.textContent =
      k === 'signup' ? '3 to 20 letters, digits, _ or -; a password of at least 8 characters.' : '';
    error.textContent = '';
    form.hidden = false;
    username.focus();
  };
  return { el: form, open };
}
