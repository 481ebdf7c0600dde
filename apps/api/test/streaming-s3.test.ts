// @media: runs ffmpeg and ffprobe
/** The ladder's tests again with the media in a real S3 server (s3rver), as a cluster stores them. */
process.env.TEST_STORAGE = 's3';
await import('./streaming.test.ts');
