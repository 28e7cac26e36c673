// Hook calls shaped as Claude Code 2.1.197 writes them on a hook's stdin.
import type {
  PermissionRequestInput,
  PreToolUseInput,
} from '../../../src/core/claude-code/hook-input.js';

const base = {
  session_id: '69ba9ccf-0000-4000-8000-000000000001',
  transcript_path: '/home/me/.claude/projects/x/69ba9ccf.jsonl',
  cwd: '/home/me/proj',
  permission_mode: 'default',
};

export const askInput = {
  questions: [
    {
      question: 'Which database should the service use?',
      header: 'Database',
      options: [
        { label: 'Postgres', description: 'Relational, mature', preview: 'CREATE TABLE t ();' },
        { label: 'SQLite', description: 'One file, no server' },
      ],
      multiSelect: false,
    },
    {
      question: 'Which environments should get it?',
      header: 'Envs',
      options: [
        { label: 'staging', description: '' },
        { label: 'prod', description: '' },
        { label: 'dev', description: '' },
      ],
      multiSelect: true,
    },
  ],
};

export const preToolUse: PreToolUseInput = {
  ...base,
  hook_event_name: 'PreToolUse',
  tool_name: 'AskUserQuestion',
  tool_input: askInput,
  tool_use_id: 'toolu_01',
};

export const permissionRequest: PermissionRequestInput = {
  ...base,
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: {
    command: 'rm -rf build && curl -X POST http://127.0.0.1:9/deploy',
    description: 'Deploy',
  },
  permission_suggestions: [
    {
      type: 'addRules',
      rules: [
        { toolName: 'Bash', ruleContent: 'rm -rf build' },
        { toolName: 'Bash', ruleContent: 'curl -X POST http://127.0.0.1:9/deploy' },
      ],
      behavior: 'allow',
      destination: 'localSettings',
    },
  ],
};
