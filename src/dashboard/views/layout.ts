import { html, type Html } from '../html.ts';
import type { Viewer } from '../http.ts';
import { PLAN_LABELS } from '../../domain/plan-label.ts';

export type Section = 'overview' | 'keys' | 'generations' | 'playground' | 'styles' | 'webhooks' | 'docs';

const NAV: { section: Section; href: string; label: string }[] = [
  { section: 'overview', href: '/', label: 'Overview' },
  { section: 'keys', href: '/keys', label: 'API keys' },
  { section: 'generations', href: '/generations', label: 'Generations' },
  { section: 'playground', href: '/playground', label: 'Playground' },
  { section: 'styles', href: '/styles', label: 'Styles' },
  { section: 'webhooks', href: '/webhooks', label: 'Webhooks' },
  { section: 'docs', href: '/docs', label: 'Docs' },
];

function head(title: string): Html {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tunesmith</title>
<link rel="stylesheet" href="/assets/app.css">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<script src="/assets/app.js" defer></script>
</head>`;
}

const logo = html`<a class="brand" href="/"><img src="/assets/icon.svg" alt="" width="28" height="28"><span>Tunesmith</span></a>`;

/** A signed-in page: navigation, the account's plan, a sign-out button, then the page itself. */
export function page(viewer: Viewer, section: Section, title: string, content: Html): Html {
  const who = viewer.account.email ?? viewer.account.name ?? viewer.account.id;
  return html`<html lang="en">
${head(title)}
<body class="app">
<header class="sidebar">
  ${logo}
  <nav aria-label="Dashboard">
    ${NAV.map((item) => html`<a href="${item.href}"${item.section === section ? html` aria-current="page" class="active"` : ''}>${item.label}</a>`)}
  </nav>
  <div class="account-box">
    <div class="who" title="${who}">${who}</div>
    <div class="plan-tag plan-${viewer.account.plan}">${PLAN_LABELS[viewer.account.plan]} plan</div>
    <form method="post" action="/signout"><input type="hidden" name="_csrf" value="${viewer.csrf}"><button class="link-button" type="submit">Sign out</button></form>
  </div>
</header>
<main id="main">
  <h1>${title}</h1>
  ${content}
</main>
</body>
</html>`;
}

/** Sign-in, sign-up and error pages: a centred card, no navigation. */
export function plainPage(title: string, content: Html): Html {
  return html`<html lang="en">
${head(title)}
<body class="plain">
<main class="auth-card">
  ${logo}
  ${content}
</main>
</body>
</html>`;
}
