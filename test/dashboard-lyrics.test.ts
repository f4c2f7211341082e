/** Songs in the dashboard: lyrics in the playground, and a sung track's voice and timed lyrics in the history. */
import test from 'ava';
import { startApp, type TestApp } from './helpers/app.ts';
import { DashboardClient } from './helpers/dashboard.ts';

const XSS = '<script>alert(1)</script>';

async function signedIn(app: TestApp, email: string): Promise<DashboardClient> {
  const browser = new DashboardClient(app.url);
  await browser.signUp(email);
  await browser.get('/playground');
  return browser;
}

const idFrom = (location: string | null): string => /id=(gen_[A-Za-z0-9_-]+)/.exec(location ?? '')![1]!;

/** Completes a task with the fake queue, then gives it the metadata the engine writes for a sung track. */
async function completeSung(app: TestApp, id: string): Promise<void> {
  const done = await app.jobs.complete(id, 'Summer Nights');
  await app.store.transaction((tx) =>
    tx.updateGeneration(id, {
      metadata: {
        ...done.metadata,
        vocals: true,
        voice: 'female',
        lyrics_source: 'given',
        lyrics: `[Verse]\nCity lights are fading slow\n${XSS}\n[Chorus]\nStay with me tonight`,
        lyrics_timing: [
          { section: 'verse', text: 'City lights are fading slow', start: 4, end: 7.5, words: [] },
          { section: 'verse', text: XSS, start: 8, end: 11.25, words: [] },
          { section: 'chorus', text: 'Stay with me tonight', start: 64.5, end: 68, words: [] },
        ],
        trace: [{ source: 'lyrics', effect: 'the given lyrics are sung in 3 lines by a female voice' }],
      },
    }),
  );
}

test('the playground sends its lyrics through the generate path, CRLF line breaks as LF', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'singer@example.com');
  const form = await browser.get('/playground');
  t.regex(form.text, /<textarea id="lyrics" name="lyrics"[^>]*maxlength="3000"/);
  t.regex(form.text, /Leave empty to have lyrics written when the prompt asks for a song/);
  const res = await browser.post('/playground', {
    prompt: 'a pop song',
    duration: '60',
    lyrics: '[Verse]\r\nCity lights are fading slow\r\nStay with me tonight',
  });
  t.is(res.status, 303);
  const generation = (await app.store.getGeneration(
    (await app.store.listAccounts()).find((a) => a.email === 'singer@example.com')!.id,
    idFrom(res.location),
  ))!;
  t.is(generation.lyrics, '[Verse]\nCity lights are fading slow\nStay with me tonight');
  t.false(generation.instrumental);
});

test('lyrics too long for the track are refused with a sentence next to the lyrics field, text kept', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'long@example.com');
  const lyrics = Array.from({ length: 80 }, (_, i) => `This is sung line number ${i + 1}`).join('\n');
  const res = await browser.post('/playground', { prompt: 'a pop song', duration: '30', lyrics });
  t.is(res.status, 400);
  t.regex(
    res.text,
    /id="lyrics-error"[^>]*>These lyrics need \d+ sung lines, but a 30-second track of this style has room for \d+\./,
  );
  t.regex(res.text, /id="lyrics"[^>]*aria-invalid="true" aria-describedby="lyrics-error"/);
  t.true(res.text.includes('This is sung line number 80'), 'the lyrics stay in the field to be shortened');
  t.is(app.jobs.queued.length, 0);
});

test('lyrics with nothing singable, and lyrics with Instrumental checked, are errors on the lyrics field', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'odd@example.com');
  const unsingable = await browser.post('/playground', {
    prompt: 'a pop song',
    duration: '60',
    lyrics: '[Verse]\n[Chorus]',
  });
  t.is(unsingable.status, 400);
  t.regex(unsingable.text, /id="lyrics-error"[^>]*>The lyrics have no words to sing\./);
  const both = await browser.post('/playground', {
    prompt: 'a pop song',
    duration: '60',
    instrumental: 'on',
    lyrics: 'City lights',
  });
  t.is(both.status, 400);
  t.regex(both.text, /id="lyrics-error"[^>]*>&quot;lyrics&quot; cannot be used with &quot;instrumental&quot;/);
  t.regex(both.text, /<div class="field lyrics-field" id="lyrics-field">/, 'the field with the error is not hidden');
});

test('the lyrics field starts hidden when Instrumental is checked, tied to the checkbox for the page script', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'quiet@example.com');
  const res = await browser.post('/playground', { prompt: 'a calm beat', duration: '30', instrumental: 'on' });
  const page = await browser.get(res.location!);
  t.regex(page.text, /id="instrumental" name="instrumental" value="on" data-hides="lyrics-field" checked/);
  t.regex(page.text, /id="lyrics-field" hidden>/);
});

test('a completed sung track shows its voice and each lyric line with its times, escaped, under section headings', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'karaoke@example.com');
  const id = idFrom(
    (await browser.post('/playground', { prompt: 'a pop song about summer nights', duration: '90' })).location,
  );
  await completeSung(app, id);
  for (const page of [await browser.get(`/generations/${id}`), await browser.get(`/playground?id=${id}`)]) {
    t.regex(page.text, /<dt>Vocals<\/dt><dd>Female voice · your lyrics<\/dd>/);
    t.regex(page.text, /<section class="lyrics-sheet" data-karaoke/);
    const lines = [
      ...page.text.matchAll(/<li class="lyric-line" data-start="([\d.]+)" data-end="([\d.]+)">(.*?)<\/li>/g),
    ];
    t.deepEqual(
      lines.map((m) => [m[1], m[2]]),
      [
        ['4.00', '7.50'],
        ['8.00', '11.25'],
        ['64.50', '68.00'],
      ],
    );
    t.regex(
      lines[2]![3]!,
      /<span class="lyric-time">1:04<\/span> <span class="lyric-text">Stay with me tonight<\/span>/,
    );
    t.true(lines[1]![3]!.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    t.false(page.text.includes(XSS));
    const headings = [...page.text.matchAll(/<div class="lyric-section">\s*<h5>(\w+)<\/h5>/g)].map((m) => m[1]);
    t.deepEqual(headings, ['Verse', 'Chorus']);
  }
});

test('an instrumental track shows no vocals and no lyrics', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'plain@example.com');
  const id = idFrom(
    (await browser.post('/playground', { prompt: 'a calm lofi beat', duration: '30', instrumental: 'on' })).location,
  );
  await app.jobs.complete(id);
  const page = await browser.get('/generations');
  t.regex(page.text, /<audio controls/);
  t.false(page.text.includes('<dt>Vocals</dt>'));
  t.false(/lyrics-sheet|lyric-line|class="lyrics"/.test(page.text));
});

test('lyrics still to be sung show as written while the track renders', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'waiting@example.com');
  const id = idFrom(
    (
      await browser.post('/playground', {
        prompt: 'a pop song',
        duration: '60',
        lyrics: `[Verse]\nCity lights\n${XSS}`,
      })
    ).location,
  );
  const page = await browser.get(`/generations/${id}`);
  t.regex(
    page.text,
    /<summary>Lyrics to be sung<\/summary><pre>\[Verse\]\nCity lights\n&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/pre>/,
  );
});

test('the history leaves the lyrics to the track page', async (t) => {
  const app = await startApp(t);
  const browser = await signedIn(app, 'compact@example.com');
  const id = idFrom(
    (await browser.post('/playground', { prompt: 'a pop song about summer nights', duration: '90' })).location,
  );
  await completeSung(app, id);
  const list = await browser.get('/generations');
  t.false(/lyrics-sheet|lyric-line/.test(list.text));
  t.regex(list.text, new RegExp(`<a href="/generations/${id}">`));
});
