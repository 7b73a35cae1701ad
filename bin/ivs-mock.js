#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's loader: no build step, never a stale build.
import { register } from 'tsx/esm/api'

register()
await import('../src/main.ts')
