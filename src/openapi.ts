/**
 * The OpenAPI 3.1 description of the v1 API, served at GET /v1/openapi.json. Written by hand beside
 * the handlers; test/api-openapi.test.ts checks that every routed path is described here.
 */
import { DOWNLOADS, DOWNLOAD_KINDS, FILE_EXTENSIONS } from './domain/generations/files.ts';
import { BODY_LIMIT_BYTES, MAX_JSON_DEPTH } from './http/json-body.ts';
import { LIMITS } from './requests/generate-request.ts';
import { planResponseSchemas } from './routes/generations/plan-openapi.ts';
import { EXTEND_DESCRIPTION, REMIX_DESCRIPTION } from './requests/derive-generation.ts';
import { ListGenerationsQuery } from './routes/generations/list-generations.ts';
import { WaitQuery } from './requests/wait-for-change.ts';
import { queryParameters } from './http/query.ts';
import { requestComponents } from './http/schema.ts';
import { requestSchemas } from './routes/request-schemas.ts';
import { webhookEvents, webhookPaths, webhookSchemas } from './routes/webhooks/openapi.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const response = (name: string) => ({ $ref: `#/components/responses/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });

const RATE_HEADERS = {
  'X-Request-Id': header('X-Request-Id'),
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
};

/** The errors every authenticated route can answer besides its own. */
const COMMON_ERRORS = {
  '401': response('Unauthorized'),
  '429': response('TooManyRequests'),
  '500': response('InternalError'),
};

const ok = (description: string, schema: object) => ({ description, headers: RATE_HEADERS, content: json(schema) });

function errorResponse(description: string, extraHeaders: Record<string, object> = {}) {
  return {
    description,
    headers: { 'X-Request-Id': header('X-Request-Id'), ...extraHeaders },
    content: json(ref('Error')),
  };
}

const styleName = {
  name: 'name',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'The name of one of your styles.',
};

export function openApiDocument(options: { serverUrl: string; styles: readonly string[] }) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tunesmith API',
      version: '1.0.0',
      summary: 'Self-hosted text-to-music generation.',
      description:
        'Create a generation from a text prompt (POST /v1/generate), poll it (GET /v1/generation/{id}) until it is completed, ' +
        'then download it from its signed download_urls (WAV, MP3, Ogg Opus, FLAC, MIDI, and LRC/WebVTT lyrics when sung). Every error has the body {"error": {type, code, message, param?}} ' +
        'and every response an X-Request-Id header. Every /v1 response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. ' +
        'Any path may also answer 404 route_not_found, 405 method_not_allowed (with Allow), 400 malformed_request or 431 headers_too_large.',
    },
    servers: [{ url: options.serverUrl }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'generations' },
      { name: 'catalog' },
      { name: 'account' },
      { name: 'webhooks' },
      { name: 'service' },
    ],
    webhooks: webhookEvents({ ref }),
    paths: {
      '/v1/generate': {
        post: {
          operationId: 'createGeneration',
          tags: ['generations'],
          summary: 'Create a generation task',
          description:
            `Validates the body, reserves one unit of the monthly quota and queues the task. Bodies are JSON (Content-Type: application/json, UTF-8), at most ${BODY_LIMIT_BYTES} bytes ` +
            `and ${MAX_JSON_DEPTH} levels deep. Unknown fields are refused by name. With an Idempotency-Key, a retry with the same key and the same body within 24 h ` +
            'answers the same generation (in its current state, with Idempotent-Replayed: true) and creates nothing; the same key with another body is 409.',
          parameters: [IDEMPOTENCY_HEADER],
          requestBody: { required: true, content: json(ref('GenerateRequest')) },
          responses: {
            '202': {
              description:
                'Accepted: the task is processing (queued or rendering). With "variations": a Batch of them (no Location; poll each generation by its id).',
              headers: {
                ...RATE_HEADERS,
                Location: { description: 'Where to poll: /v1/generation/{id}.', schema: { type: 'string' } },
                'Idempotent-Replayed': {
                  description: '"true" when this answers an earlier request with the same Idempotency-Key.',
                  schema: { type: 'string', enum: ['true'] },
                },
              },
              content: { 'application/json': { schema: { oneOf: [ref('Generation'), ref('Batch')] } } },
            },
            '400': response('BadRequest'),
            '402': response('QuotaExceeded'),
            '403': response('Forbidden'),
            '409': response('Conflict'),
            '413': response('PayloadTooLarge'),
            '503': response('ServiceUnavailable'),
            ...COMMON_ERRORS,
          },
        },
      },
      ...onePath('/v1/generation/{id}', ''),
      ...onePath('/v1/generations/{id}', 'InCollection'),
      '/v1/generations': {
        get: {
          operationId: 'listGenerations',
          tags: ['generations'],
          summary: "List the account's generations, newest first",
          description: 'Ties in created_at are broken by id. Unknown or repeated query parameters are refused.',
          parameters: queryParameters(ListGenerationsQuery),
          responses: {
            '200': ok('One page of generations.', ref('GenerationList')),
            '400': response('BadRequest'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/styles': {
        get: {
          operationId: 'listStyles',
          tags: ['catalog'],
          summary: 'The styles accepted by the style field: the built-in ones, then your own',
          responses: {
            '200': ok(
              'Every built-in style with a one-line description, then each of your own with what it changes.',
              ref('StyleList'),
            ),
            ...COMMON_ERRORS,
          },
        },
        post: {
          operationId: 'createStyle',
          tags: ['catalog'],
          summary: 'Make a style of your own from an existing one (Enterprise: custom_styles)',
          description:
            'A built-in style (or one of yours) with what you change: tempo range, key or modes, meter, an instrument per role, ' +
            "another style's groove, swing, reverb, whether it sings. Checked as the built-in styles are; only your account sees it or can use it " +
            'as "style" in POST /v1/generate. A task keeps the style as it was when it was made. At most 50 per account.',
          requestBody: { required: true, content: json(ref('StyleRequest')) },
          responses: {
            '201': ok('The new style.', ref('Style')),
            '400': response('BadRequest'),
            '403': response('Forbidden'),
            '409': errorResponse('style_exists: you have a style of that name, or a built-in one has it.'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/styles/{name}': {
        get: {
          operationId: 'getStyle',
          tags: ['catalog'],
          summary: 'One of your styles, with what it changes',
          parameters: [styleName],
          responses: { '200': ok('The style.', ref('Style')), '404': response('NotFound'), ...COMMON_ERRORS },
        },
        delete: {
          operationId: 'deleteStyle',
          tags: ['catalog'],
          summary: 'Delete one of your styles (tasks made with it keep it)',
          parameters: [styleName],
          responses: { '204': { description: 'Deleted.' }, '404': response('NotFound'), ...COMMON_ERRORS },
        },
      },
      '/v1/account': {
        get: {
          operationId: 'getAccount',
          tags: ['account'],
          summary: "The caller's plan, rate limit and this month's quota",
          responses: { '200': ok('The account.', ref('Account')), ...COMMON_ERRORS },
        },
      },
      ...webhookPaths({ ref, response, ok, json, commonErrors: COMMON_ERRORS }),
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          tags: ['service'],
          summary: 'This document',
          description: 'Needs no key and does not count against the rate limit: it holds nothing secret.',
          security: [],
          responses: { '200': ok('The OpenAPI 3.1 document.', { type: 'object' }) },
        },
      },
      '/healthz': {
        get: {
          operationId: 'getHealth',
          tags: ['service'],
          summary: 'Liveness of the store and the render worker pool',
          security: [],
          responses: {
            '200': {
              description: 'Both are up.',
              headers: { 'X-Request-Id': header('X-Request-Id') },
              content: json(ref('Health')),
            },
            '503': response('ServiceUnavailable'),
          },
        },
      },
      '/files/{account_id}/{file}': {
        get: {
          operationId: 'downloadFile',
          tags: ['generations'],
          summary: 'Download a rendered file through a signed link',
          description:
            "Use the URLs in a completed generation's download_urls exactly as given; no API key is needed, so they play in an <audio> tag. " +
            'Links expire at download_expires_at (24 h after they were issued). Supports one byte range per request.',
          security: [],
          parameters: [
            { name: 'account_id', in: 'path', required: true, schema: { type: 'string' } },
            {
              name: 'file',
              in: 'path',
              required: true,
              description:
                '{generation_id}.{ext}: wav, mp3, opus, flac, mid, and for sung tracks lrc and vtt; stem-{role}.wav and stems.zip for stems.',
              schema: {
                type: 'string',
                pattern: `^[A-Za-z0-9_-]+\\.(${FILE_EXTENSIONS.join('|')}|stem-[a-z]+\\.wav|stems\\.zip)$`,
              },
            },
            { name: 'expires', in: 'query', required: true, description: 'Unix seconds.', schema: { type: 'integer' } },
            {
              name: 'sig',
              in: 'query',
              required: true,
              description: 'base64url HMAC-SHA256 signature.',
              schema: { type: 'string' },
            },
            {
              name: 'Range',
              in: 'header',
              required: false,
              description: 'One range, e.g. bytes=0-1023, bytes=1024- or bytes=-500.',
              schema: { type: 'string' },
            },
          ],
          responses: {
            '200': fileResponse('The whole file.'),
            '206': fileResponse(
              'The requested range (Content-Range tells which). Not for stems.zip, which is always sent whole.',
            ),
            '403': response('Forbidden'),
            '404': response('NotFound'),
            '416': errorResponse('The range lies outside the file.', {
              'Content-Range': { schema: { type: 'string', examples: ['bytes */1234'] } },
            }),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key from "tunesmith keys create": Authorization: Bearer ts_live_…',
        },
      },
      headers: {
        'X-Request-Id': {
          description:
            'Identifies this request in the server log; send your own (8–128 of A–Z a–z 0–9 . _ : -) to have it echoed.',
          schema: { type: 'string' },
        },
        'RateLimit-Limit': {
          description: 'Requests per minute allowed to the account (all its keys together).',
          schema: { type: 'integer' },
        },
        'RateLimit-Remaining': {
          description: 'Requests that may be made right now (a token bucket refilled continuously).',
          schema: { type: 'integer' },
        },
        'RateLimit-Reset': {
          description: 'Seconds until the full limit is available again.',
          schema: { type: 'integer' },
        },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      },
      responses: {
        BadRequest: errorResponse(
          'The request is malformed: codes invalid_json, body_required, unsupported_media_type, invalid_encoding, too_deep, invalid_type, unknown_field, missing_field, out_of_range, invalid_characters, unknown_style, unknown_instrument, conflicting_fields, invalid_url, unsafe_url, too_many_endpoints, invalid_idempotency_key, unknown_parameter, duplicate_parameter, invalid_value. `param` names the field, parameter or header at fault.',
        ),
        Unauthorized: errorResponse(
          'No valid API key: codes missing_api_key, malformed_api_key, invalid_api_key, revoked_api_key.',
          {
            'WWW-Authenticate': { schema: { type: 'string', examples: ['Bearer realm="tunesmith"'] } },
          },
        ),
        QuotaExceeded: errorResponse(
          'The monthly quota is used up (code quota_exceeded); the error carries `limit` and `resets_at`.',
        ),
        Forbidden: errorResponse(
          'Not allowed: plan_forbidden (callback_url or /v1/webhooks on Starter), invalid_signature or link_expired (download links).',
        ),
        NotFound: errorResponse(
          'No such resource: generation_not_found, file_not_found, webhook_endpoint_not_found, webhook_delivery_not_found, route_not_found.',
        ),
        Conflict: errorResponse('idempotency_key_reused: the Idempotency-Key was used with a different body.'),
        StateConflict: errorResponse(
          'generation_finished (cancel of a completed or failed generation), generation_not_finished (delete of one still pending or processing), ' +
            'or, for extend and remix, source_not_completed, source_is_loop or source_without_plan (the source cannot be spliced; the message says what to do).',
        ),
        PayloadTooLarge: errorResponse(`body_too_large: the body is over ${BODY_LIMIT_BYTES} bytes.`),
        TooManyRequests: errorResponse(
          "rate_limit_exceeded (the account's requests per minute) or too_many_failed_authentications (this address sent too many bad keys).",
          {
            'Retry-After': header('Retry-After'),
          },
        ),
        MethodNotAllowed: errorResponse('method_not_allowed: the path exists for other methods, listed in Allow.', {
          Allow: { schema: { type: 'string' } },
        }),
        HeadersTooLarge: errorResponse('headers_too_large: the request line and headers are over the server limit.'),
        InternalError: errorResponse(
          'internal_error: a fault on the server. The body never contains a stack trace; report the X-Request-Id.',
        ),
        ServiceUnavailable: errorResponse(
          'service_unavailable, shutting_down, or storage_unavailable (the disk is full; retry after Retry-After).',
        ),
      },
      schemas: {
        ...webhookSchemas({ ref }),
        ...requestComponents(requestSchemas(options.styles)),
        Batch: planResponseSchemas(ref).batch,
        GenerationSource: {
          type: 'object',
          required: ['id', 'operation'],
          description: 'Only on a generation made by …/extend or …/remix: the generation it was made from.',
          properties: {
            id: { type: 'string' },
            operation: { enum: ['extend', 'remix'] },
            section: { type: 'integer', description: "remix only: the source's section redone." },
          },
        },
        GenerationStatus: { type: 'string', enum: ['pending', 'processing', 'completed', 'failed'] },
        Generation: {
          type: 'object',
          required: [
            'id',
            'object',
            'status',
            'prompt',
            'duration',
            'style',
            'instrumental',
            'seed',
            'created_at',
            'started_at',
            'completed_at',
            'progress',
            'queue_position',
            'title',
          ],
          properties: {
            id: { type: 'string' },
            object: { const: 'generation' },
            status: ref('GenerationStatus'),
            prompt: { type: 'string' },
            duration: {
              type: 'number',
              description:
                "The track's length in seconds. A loop's is its real length in whole bars (metadata.loop.seconds once completed), not the seconds asked, from creation on.",
            },
            style: { type: ['string', 'null'] },
            instrumental: { type: 'boolean' },
            seed: { type: 'integer' },
            batch_id: {
              type: 'string',
              description: 'Only on a generation made by a request with "variations": shared by the batch.',
            },
            source: ref('GenerationSource'),
            sample_rate: { enum: LIMITS.sampleRates, description: "The request's WAV/FLAC sample rate (Hz)." },
            bit_depth: { enum: LIMITS.bitDepths, description: "The request's WAV/FLAC bits per sample." },
            bitrate: {
              type: ['integer', 'null'],
              description: "The request's constant MP3 bitrate (kbps), or null for VBR -V2.",
            },
            created_at: { type: 'string', format: 'date-time' },
            started_at: { type: ['string', 'null'], format: 'date-time' },
            completed_at: { type: ['string', 'null'], format: 'date-time' },
            estimated_time: {
              type: ['number', 'null'],
              description:
                'Seconds until completion; only while pending or processing (null for a moment after a restart).',
            },
            progress: { type: 'number', minimum: 0, maximum: 1 },
            queue_position: {
              type: ['integer', 'null'],
              description: '0 while rendering, n when n tasks start first; null once terminal.',
            },
            title: { type: ['string', 'null'] },
            bpm: { type: 'number', description: 'When completed: the tempo in beats per minute.' },
            key: { type: 'string', description: 'When completed: tonic and mode, e.g. "A minor", "D Dorian".' },
            time_signature: {
              type: 'string',
              description: 'When completed: beats per bar / beat unit, e.g. "4/4", "6/8".',
            },
            sections: {
              type: 'array',
              description:
                "When completed: the form, in order. start and end in seconds; bars is the section's length in bars (a last section cut short by the duration may end part-way through a bar).",
              items: {
                type: 'object',
                required: ['kind', 'start', 'end', 'bars'],
                properties: {
                  kind: {
                    enum: [
                      'intro',
                      'verse',
                      'prechorus',
                      'chorus',
                      'bridge',
                      'build',
                      'drop',
                      'breakdown',
                      'theme',
                      'climax',
                      'outro',
                    ],
                  },
                  start: { type: 'number' },
                  end: { type: 'number' },
                  bars: { type: 'number' },
                },
              },
            },
            plan: planResponseSchemas(ref).plan,
            loudness: {
              type: ['object', 'null'],
              description:
                "When completed: the master's integrated loudness (LUFS, ITU-R BS.1770) and true peak (dBTP), measured by the engine at 44.1 kHz. null for tracks made before it was measured.",
              required: ['integrated', 'true_peak'],
              properties: { integrated: { type: 'number' }, true_peak: { type: 'number' } },
            },
            metadata: {
              type: 'object',
              description:
                'When completed: what the engine understood and used (genre, bpm, key, mode, meter, instruments, vocals, trace, warnings) and, when sung, lyrics_timing. ' +
                'Its sections, plan and loudness are deprecated aliases of the top-level fields of the same names (read those).',
              properties: {
                sections: {
                  type: 'array',
                  deprecated: true,
                  description:
                    'Deprecated: the same as the generation\'s top-level "sections", kept for clients that read it here.',
                },
                plan: {
                  type: 'array',
                  deprecated: true,
                  description:
                    'Deprecated: the same as the generation\'s top-level "plan", kept for clients that read it here.',
                },
                loudness: {
                  type: ['object', 'null'],
                  deprecated: true,
                  description:
                    'Deprecated: the same as the generation\'s top-level "loudness", kept for clients that read it here.',
                },
                warnings: {
                  type: 'array',
                  items: { type: 'string' },
                  description:
                    'Words or requests the engine ignored or could not honour, in plain sentences: an instrument it cannot play or plays with a stand-in ("kazoo", "erhu"), a tempo word that contradicts an explicit bpm, a prompt in a language it does not read, lyrics written in English for a prompt in another language, or a prompt with nothing recognised. Empty when everything was understood.',
                },
                vocals: { type: 'boolean', description: 'Whether the track is sung.' },
                loop: {
                  type: 'object',
                  description:
                    'Only for a loop (request loop: true): its length in whole bars and in seconds, and the seconds asked for.',
                  required: ['bars', 'seconds', 'requested_seconds'],
                  properties: {
                    bars: { type: 'integer', minimum: 1 },
                    seconds: { type: 'number' },
                    requested_seconds: { type: 'number' },
                  },
                },
                voice: { enum: ['female', 'male', null], description: 'Who sings, when sung.' },
                lyrics_source: {
                  enum: ['given', 'written', null],
                  description: "given: the request's lyrics; written: lyrics the engine wrote for the prompt.",
                },
                lyrics_timing: {
                  type: ['array', 'null'],
                  description:
                    "When sung: each line with its start and end in seconds, and each word's, for karaoke-style display.",
                  items: {
                    type: 'object',
                    required: ['section', 'text', 'start', 'end', 'words'],
                    properties: {
                      section: { enum: ['verse', 'prechorus', 'chorus', 'bridge', 'intro', 'outro'] },
                      text: { type: 'string' },
                      start: { type: 'number' },
                      end: { type: 'number' },
                      words: {
                        type: 'array',
                        items: {
                          type: 'object',
                          required: ['text', 'start', 'end'],
                          properties: { text: { type: 'string' }, start: { type: 'number' }, end: { type: 'number' } },
                        },
                      },
                    },
                  },
                },
              },
            },
            lyrics: {
              type: 'string',
              description:
                'The sung text with [Verse]/[Chorus]/[Bridge] tags: when completed and sung (written by the engine unless given), or the given lyrics while pending.',
            },
            download_urls: {
              type: 'object',
              description:
                'When completed: absolute signed URLs, one per file. wav (16/24-bit PCM), mp3 (LAME VBR -V2 or the requested bitrate, gapless info frame), opus (Ogg Opus 160 kbps, 48 kHz), ' +
                "flac (the WAV's PCM, lossless), midi; lrc (one time per line) and vtt (WebVTT, one cue per line with word timestamps) only for sung tracks. " +
                'mp3, opus and flac are made from the WAV when first fetched (that first download waits for the encode; later ones are served from storage). ' +
                'Tracks made before the other formats existed have wav and midi only.',
              required: ['wav', 'midi'],
              properties: {
                ...Object.fromEntries(
                  DOWNLOAD_KINDS.map((kind) => [
                    kind,
                    { type: 'string', format: 'uri', description: DOWNLOADS[kind].contentType },
                  ]),
                ),
                stems: {
                  type: 'string',
                  format: 'uri',
                  description:
                    'application/zip: every stem (see stem_urls) in one zip, stored uncompressed, made as it is sent. Only when the request asked for stems.',
                },
              },
            },
            download_expires_at: { type: 'string', format: 'date-time' },
            stem_urls: {
              type: 'object',
              description:
                'When completed and the request asked for stems: one signed link per part that plays (drums, bass, chords, pad, arp, lead, vocal, texture), each a 16-bit 44.1 kHz WAV as long as the mix; together they add up to it. Expire with the other links.',
              additionalProperties: { type: 'string', format: 'uri' },
            },
            error: {
              type: 'object',
              description:
                'When failed. `code` is render_failed, render_interrupted, storage_full (the server ran out of disk saving the track), internal_error, cancelled (POST /v1/generation/{id}/cancel), or source_unavailable (an extend or remix whose source was deleted before it rendered).',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
        GenerationList: {
          type: 'object',
          required: ['object', 'data', 'total', 'limit', 'offset', 'has_more'],
          properties: {
            object: { const: 'list' },
            data: { type: 'array', items: ref('Generation') },
            total: { type: 'integer' },
            limit: { type: 'integer' },
            offset: { type: 'integer' },
            has_more: { type: 'boolean' },
          },
        },
        Style: {
          type: 'object',
          required: ['object', 'name', 'description', 'custom'],
          description:
            'A style; one of yours also has its base, what it changes (the fields of StyleRequest) and created_at.',
          properties: {
            object: { const: 'style' },
            name: { type: 'string' },
            description: { type: 'string' },
            custom: { type: 'boolean', description: 'true for a style of yours (POST /v1/styles).' },
            base: { type: 'string', description: 'The built-in style it was made from.' },
            created_at: { type: 'string', format: 'date-time' },
          },
          additionalProperties: true,
        },
        StyleList: {
          type: 'object',
          required: ['object', 'data'],
          properties: { object: { const: 'list' }, data: { type: 'array', items: ref('Style') } },
        },
        Account: {
          type: 'object',
          required: ['object', 'id', 'plan', 'rate_limit', 'quota', 'webhooks'],
          properties: {
            object: { const: 'account' },
            id: { type: 'string' },
            email: { type: ['string', 'null'] },
            name: { type: ['string', 'null'] },
            plan: { type: 'string', enum: ['starter', 'developer', 'enterprise'] },
            plan_label: { type: 'string' },
            created_at: { type: 'string', format: 'date-time' },
            rate_limit: { type: 'object', properties: { requests_per_minute: { type: 'integer' } } },
            quota: {
              type: 'object',
              properties: {
                month: { type: 'string', description: 'YYYY-MM, UTC.' },
                limit: { type: ['integer', 'null'], description: 'null = unlimited.' },
                used: { type: 'integer' },
                remaining: { type: ['integer', 'null'] },
                resets_at: { type: 'string', format: 'date-time' },
              },
            },
            webhooks: { type: 'boolean' },
            features: {
              type: 'object',
              description: "What the account's plan includes; asking for more is a 403 naming the plans that do.",
              required: ['quality', 'api_access', 'priority', 'webhooks', 'custom_styles', 'dedicated_workers'],
              properties: {
                quality: {
                  enum: ['standard', 'high'],
                  description:
                    'standard: 44.1 kHz, 16-bit, MP3 up to 192 kbps, no stems. high: also 48 kHz, 24-bit, 320 kbps, stems.',
                },
                api_access: {
                  enum: ['basic', 'full'],
                  description:
                    'basic: create, get, list, cancel, delete, account, styles. full: also extend, remix, variations, sections and musical fields.',
                },
                priority: { type: 'integer', description: "The plan's rank in the render queue: lower starts first." },
                webhooks: { type: 'boolean' },
                custom_styles: { type: 'boolean', description: 'Styles of its own: POST /v1/styles.' },
                dedicated_workers: {
                  type: 'boolean',
                  description: 'Render workers of its own, which the operator starts (tunesmith worker --accounts).',
                },
              },
            },
          },
        },
        Health: {
          type: 'object',
          properties: { status: { const: 'ok' }, store: { const: 'up' }, workers: { const: 'up' } },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['type', 'code', 'message'],
              properties: {
                type: {
                  type: 'string',
                  enum: [
                    'invalid_request_error',
                    'authentication_error',
                    'permission_error',
                    'quota_error',
                    'not_found_error',
                    'conflict_error',
                    'rate_limit_error',
                    'service_unavailable_error',
                    'api_error',
                  ],
                },
                code: { type: 'string' },
                message: { type: 'string', description: 'A sentence saying what to do.' },
                param: { type: 'string', description: 'The field, query parameter or header at fault.' },
                limit: { type: 'integer', description: 'quota_exceeded only.' },
                resets_at: { type: 'string', format: 'date-time', description: 'quota_exceeded only.' },
              },
            },
          },
        },
      },
    },
  };
}

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: '1–255 printable ASCII characters, e.g. a UUID. Scoped to the account; remembered for 24 h.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

/** One generation's routes, at /v1/generation/{id} and at the REST spelling /v1/generations/{id} (operationIds differ by `suffix`). */
function onePath(path: string, suffix: string) {
  const parameters = [
    { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } },
  ];
  const same = suffix === '' ? '' : ` (the same as at /v1/generation/{id})`;
  return {
    [path]: {
      get: {
        operationId: `getGeneration${suffix}`,
        tags: ['generations'],
        summary: `Get one generation${same}`,
        description:
          'An id that does not exist or belongs to another account answers 404 alike. ' +
          'To wait for a task, long-poll: `?wait=60` holds the answer until the status changes (or 60 s pass) and counts once against the rate limit. ' +
          'Without `wait`, poll no more often than every 10 s.',
        parameters: [...parameters, ...queryParameters(WaitQuery)],
        responses: {
          '200': ok('The generation.', ref('Generation')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
          ...COMMON_ERRORS,
        },
      },
      delete: {
        operationId: `deleteGeneration${suffix}`,
        tags: ['generations'],
        summary: `Delete a finished generation and its audio${same}`,
        description:
          'Only a completed or failed generation can be deleted (cancel a pending or processing one first). It is gone from every read and its download links answer 404; ' +
          'its quota unit stays spent. Webhook deliveries of its events not yet sent are cancelled.',
        parameters,
        responses: {
          '204': { description: 'Deleted.', headers: RATE_HEADERS },
          '404': response('NotFound'),
          '409': response('StateConflict'),
          ...COMMON_ERRORS,
        },
      },
    },
    ...Object.fromEntries(
      (['extend', 'remix'] as const).map((operation) => [
        `${path}/${operation}`,
        {
          post: {
            operationId: `${operation}Generation${suffix}`,
            tags: ['generations'],
            summary: `${operation === 'extend' ? 'Extend a completed generation' : 'Redo one section of a completed generation'}${same}`,
            description: operation === 'extend' ? EXTEND_DESCRIPTION : REMIX_DESCRIPTION,
            parameters: [...parameters, IDEMPOTENCY_HEADER],
            requestBody: {
              required: true,
              content: json(ref(operation === 'extend' ? 'ExtendRequest' : 'RemixRequest')),
            },
            responses: {
              '202': {
                description: 'Accepted: the new generation, processing, with its `source`.',
                headers: {
                  ...RATE_HEADERS,
                  Location: { description: 'Where to poll: /v1/generation/{id}.', schema: { type: 'string' } },
                },
                content: json(ref('Generation')),
              },
              '400': response('BadRequest'),
              '402': response('QuotaExceeded'),
              '404': response('NotFound'),
              '409': response('StateConflict'),
              ...COMMON_ERRORS,
            },
          },
        },
      ]),
    ),
    [`${path}/cancel`]: {
      post: {
        operationId: `cancelGeneration${suffix}`,
        tags: ['generations'],
        summary: `Cancel a pending or processing generation${same}`,
        description:
          'Stops the task: it ends `failed` with error code `cancelled`, its quota unit is given back, and a `generation.failed` webhook is sent. ' +
          'A render that finishes before the cancel takes effect stays completed, and is returned as such.',
        parameters,
        responses: {
          '200': ok('The generation as it is now.', ref('Generation')),
          '404': response('NotFound'),
          '409': response('StateConflict'),
          ...COMMON_ERRORS,
        },
      },
    },
  };
}

function fileResponse(description: string) {
  return {
    description,
    headers: {
      'X-Request-Id': header('X-Request-Id'),
      'Accept-Ranges': { schema: { const: 'bytes' } },
      'Content-Disposition': { schema: { type: 'string', examples: ['attachment; filename="rainy-night-lofi.wav"'] } },
    },
    content: Object.fromEntries(
      [...DOWNLOAD_KINDS.map((kind) => DOWNLOADS[kind].contentType), 'application/zip'].map((type) => [
        type,
        { schema: { type: 'string', contentEncoding: 'binary' } },
      ]),
    ),
  };
}
