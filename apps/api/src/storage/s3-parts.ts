/** Parts of the multipart uploads the store makes of big objects (S3 takes 5 MiB to 5 GiB, 10 000 parts). */
export const S3_PART_BYTES = 16 * 1024 * 1024;
/** The smallest part S3 accepts, except the last one of an object. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
