import { describe, expect, it } from 'vitest';
import { redactSecret } from '../../src/api/trace.js';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();

describe('redaction replaces whole secret values only (issue 13.21)', () => {
  it('a one-letter design tool key refused by the design tool: the error keeps /api/smartlink whole', async () => {
    const { code, stderr } = await merch(sandbox(), ['design-link', '--sku', 'DT-000001', '--user-id', 'u1'], { env: { MERCH_DESIGN_TOOL_KEY: 'k' } });
    expect(code).toBe(3);
    expect(stderr).toContain('/api/smartlink');
    expect(stderr).not.toContain('***');
  });

  it('masks the value where it stands alone, in any surroundings that are not part of a word', () => {
    expect(redactSecret('{"key":"k"} ?api_key=k&x=1 k', 'k')).toBe('{"key":"***"} ?api_key=***&x=1 ***');
    expect(redactSecret('POST /design-tool/api/smartlink: key k-2 is not k2', 'k')).toBe('POST /design-tool/api/smartlink: key k-2 is not k2');
    expect(redactSecret('token a.b+c/d= refused', 'a.b+c/d=')).toBe('token *** refused');
    expect(redactSecret('nothing to hide', '')).toBe('nothing to hide');
  });
});
