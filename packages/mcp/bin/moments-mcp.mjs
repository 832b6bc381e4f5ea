#!/usr/bin/env node
// The workspace's packages are TypeScript run by tsx, as the server is.
import { register } from 'tsx/esm/api';

register();
await import('../src/stdio.ts');
