import { fail, type MethodSpec } from './method-support.js';
import { isJsonObject } from './types.js';
import { stringArg } from './web-api-request.js';
import type { HttpAnswer } from './web-api-router.js';
import type { Workspace } from './workspace.js';

/**
 * files.getUploadURLExternal and files.completeUploadExternal, the two calls around an upload
 * that `files.uploadV2` makes: announce a file, send its bytes to the URL given, then share it
 * (in a channel, or as a thread reply with `thread_ts`).
 */
export const FILE_METHODS: Record<string, MethodSpec> = {
  'files.getUploadURLExternal': {
    token: 'bot',
    scope: 'files:write',
    handle(ctx) {
      const filename = stringArg(ctx.args, 'filename');
      const length = Number(stringArg(ctx.args, 'length'));
      if (!filename || !Number.isSafeInteger(length) || length <= 0) {
        return fail('invalid_arguments', {
          response_metadata: { messages: ['[ERROR] filename and a positive length are required'] },
        });
      }
      const id = ctx.workspace.ids.nextId('F');
      const { teamDomain } = ctx.workspace.identity;
      ctx.workspace.files.set(id, {
        id,
        name: filename,
        title: filename,
        length,
        permalink: `https://${teamDomain}.slack.com/files/${ctx.workspace.identity.botUserId}/${id}/${filename}`,
      });
      return { ok: true, upload_url: ctx.uploadUrl(id), file_id: id };
    },
  },
  'files.completeUploadExternal': {
    token: 'bot',
    scope: 'files:write',
    handle(ctx) {
      const listed = Array.isArray(ctx.args.files) ? ctx.args.files.filter(isJsonObject) : [];
      if (listed.length === 0) return fail('invalid_arguments');
      const files = [];
      for (const entry of listed) {
        const file = ctx.workspace.files.get(String(entry.id));
        if (!file) return fail('file_not_found');
        if (file.content === undefined) return fail('file_upload_not_found');
        if (typeof entry.title === 'string') file.title = entry.title;
        files.push(file);
      }
      const channelRef = stringArg(ctx.args, 'channel_id');
      if (channelRef) {
        const channel = ctx.workspace.resolveChannel(channelRef);
        if (!channel) return fail('channel_not_found');
        if (!channel.members.has(ctx.workspace.identity.botUserId)) return fail('not_in_channel');
        const threadTs = stringArg(ctx.args, 'thread_ts');
        if (threadTs && !ctx.workspace.message(channel.id, threadTs))
          return fail('invalid_thread_ts');
        ctx.workspace.postMessage({
          channel: channel.id,
          text: stringArg(ctx.args, 'initial_comment') ?? '',
          blocks: [],
          files: files.map((f) => structuredClone(f)),
          ...(threadTs ? { threadTs } : {}),
        });
      }
      return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) };
    },
  },
};

/** The upload URL's side: takes the bytes of an announced file. */
export class FileUploads {
  constructor(private readonly workspace: Workspace) {}

  /** Stores an upload (raw, or the one part of a multipart/form-data body) as the file's content. */
  receive(fileId: string, contentType: string | undefined, body: string): HttpAnswer {
    const file = this.workspace.files.get(fileId);
    if (!file)
      return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such file' };
    file.content = partOf(contentType, body);
    return {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: `OK - ${file.content.length}`,
    };
  }
}

/** The content of a form's single part, or the body itself when it is not multipart. */
function partOf(contentType: string | undefined, body: string): string {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) return body;
  const part = body.split(`--${mark}`).find((p) => p.includes('\r\n\r\n') && !p.startsWith('--'));
  if (!part) return '';
  const start = part.indexOf('\r\n\r\n') + 4;
  return part.slice(start).replace(/\r\n$/, '');
}
