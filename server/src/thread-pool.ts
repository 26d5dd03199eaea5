/**
 * libuv's thread pool (file I/O, zlib, scrypt, sharp's callbacks) has 4 threads unless told
 * otherwise, and is sized at its first use: this module is main's first import, before any work.
 */
process.env.UV_THREADPOOL_SIZE ??= '16';
