#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
import { exitQuietlyOnClosedPipe, main } from '../dist/cli/main.js';
exitQuietlyOnClosedPipe();
main(process.argv).then((code) => { process.exitCode = code; });
