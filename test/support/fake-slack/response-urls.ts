import { fail, readMessageBlocks } from './method-support.js';
import { isJsonObject, type JsonObject } from './types.js';
import { booleanArg, decodeJsonArgs, stringArg } from './web-api-request.js';
import type { HttpAnswer } from './web-api-router.js';
import type { Workspace } from './workspace.js';

/** What a response_url answers for: the interaction's channel, user and message. */
export interface ResponseUrlTarget {
  channel: string;
  userId: string;
  messageTs?: string;
}

const jsonAnswer = (status: number, body: JsonObject): HttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

/**
 * response_url links handed out with interactions, and what posting to them does:
 * replace or delete the original message, post in the channel, or reply ephemerally.
 */
export class ResponseUrls {
  private readonly targets = new Map<string, ResponseUrlTarget>();

  constructor(
    private readonly workspace: Workspace,
    private readonly baseUrl: () => string,
  ) {}

  /** A fresh response_url for one interaction. */
  issue(target: ResponseUrlTarget): string {
    const id = `${this.workspace.identity.teamId}/${Math.floor(this.workspace.now())}/${this.workspace.ids.hex(24)}`;
    this.targets.set(id, target);
    return `${this.baseUrl()}${id}`;
  }

  /** Handles a POST to `/actions/<id>`. */
  handle(id: string, body: string): HttpAnswer {
    let args: JsonObject = {};
    try {
      const parsed: unknown = JSON.parse(body);
      if (isJsonObject(parsed)) args = decodeJsonArgs(parsed);
    } catch {
      return this.record(id, args, jsonAnswer(400, fail('invalid_payload')));
    }
    return this.record(id, args, this.answer(id, args));
  }

  private record(id: string, args: JsonObject, answer: HttpAnswer): HttpAnswer {
    this.workspace.calls.push({
      method: 'response_url',
      args: { ...args, response_url_id: id },
      at: this.workspace.now(),
      status: answer.status,
      response: JSON.parse(answer.body) as JsonObject,
    });
    return answer;
  }

  private answer(id: string, args: JsonObject): HttpAnswer {
    const target = this.targets.get(id);
    if (!target) return jsonAnswer(404, fail('expired_url'));
    const original = target.messageTs
      ? this.workspace.message(target.channel, target.messageTs)
      : undefined;

    if (booleanArg(args, 'delete_original')) {
      if (!original) return jsonAnswer(404, fail('message_not_found'));
      this.workspace.deleteMessage(original);
      return jsonAnswer(200, { ok: true });
    }
    const blocks = readMessageBlocks(args);
    if (!blocks.ok) return jsonAnswer(400, blocks.response);
    const text = stringArg(args, 'text') ?? '';
    if (text === '' && blocks.blocks === undefined) return jsonAnswer(400, fail('no_text'));

    if (booleanArg(args, 'replace_original')) {
      if (!original) return jsonAnswer(404, fail('message_not_found'));
      this.workspace.updateMessage(original, { text, blocks: blocks.blocks ?? [] });
      return jsonAnswer(200, { ok: true });
    }
    const threadTs = stringArg(args, 'thread_ts');
    if (stringArg(args, 'response_type') === 'in_channel') {
      this.workspace.postMessage({
        channel: target.channel,
        text,
        blocks: blocks.blocks ?? [],
        ...(threadTs ? { threadTs } : {}),
      });
      return jsonAnswer(200, { ok: true });
    }
    this.workspace.addEphemeral({
      channel: target.channel,
      user: target.userId,
      ts: this.workspace.ids.nextTs(),
      text,
      blocks: structuredClone(blocks.blocks ?? []),
      ...(threadTs ? { threadTs } : {}),
    });
    return jsonAnswer(200, { ok: true });
  }
}
