import { describe, expect, it } from 'vitest';
import { masterPlaylistUrl } from './use-adaptive-source';

describe('masterPlaylistUrl', () => {
  it('keeps the signature of the MP4 on the master playlist of its ladder', () => {
    expect(masterPlaylistUrl('/v1/media/abc?u=1&exp=2&sig=x-_')).toBe('/v1/media/abc/hls/master.m3u8?u=1&exp=2&sig=x-_');
    expect(masterPlaylistUrl('/v1/media/abc')).toBe('/v1/media/abc/hls/master.m3u8');
  });
});
