import { ConfigError } from './errors.js';
import { isLoopbackHost, onLoopback } from '../lib/loopback.js';
import { SANDBOX_DESIGN_TOOL_KEY, type Settings } from './settings.js';

/**
 * The design tool key to send, checked before anything is sent. The sandbox's public key
 * goes only to a design tool that is a merch sandbox's (`isSandbox` asks, once, without
 * credentials); and a merch sandbox's design tool gets it even when the profile stores a
 * key, which is the real design tool's (MERCH_DESIGN_TOOL_KEY is still sent as it is). A
 * key never goes over plain http to a remote host without --allow-http. The profile's key
 * goes only to the origin it was stored for (src/config/origin-binding.ts): another design
 * tool gets none (`designToolKeyElsewhere`), but a merch sandbox's its public one.
 */
export async function designToolKey(
  settings: Pick<Settings, 'designToolKey' | 'designToolKeySource' | 'designToolUrl' | 'insecure' | 'designToolKeyElsewhere' | 'profile'>,
  isSandbox: (url: string) => Promise<boolean>,
): Promise<string> {
  const { designToolKey: key, designToolKeySource, designToolUrl, insecure, designToolKeyElsewhere: elsewhere } = settings;
  if (designToolKeySource === 'profile' && onLoopback(designToolUrl) && (await isSandbox(designToolUrl))) return SANDBOX_DESIGN_TOOL_KEY;
  if (elsewhere !== undefined && (designToolKeySource === 'none' || (designToolKeySource === 'default' && !(await isSandbox(designToolUrl))))) {
    const here = new URL(designToolUrl).origin;
    throw new ConfigError(
      `no design tool key for ${here}: profile ${settings.profile}'s key is for ${elsewhere}, and goes nowhere else`,
      'key-for-other-origin',
      undefined,
      { of: 'key-for-other-origin', designToolUrl },
    );
  }
  if (key && designToolKeySource === 'default' && !(await isSandbox(designToolUrl))) {
    throw new ConfigError(`no design tool key for ${designToolUrl}: it is not a merch sandbox, so the sandbox's public key is not sent there`, 'no-design-tool-key');
  }
  if (!key) throw new ConfigError('no design tool API key: set MERCH_DESIGN_TOOL_KEY, or store one in the profile', 'no-design-tool-key');
  const url = new URL(designToolUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new ConfigError(`refusing to send the design tool key over plain http to ${url.host}`, 'insecure');
  }
  return key;
}
