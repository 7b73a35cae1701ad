// The compaction worker (a worker thread, so the server goes on answering): folds the log being
// compacted into the data file. Bundled as dist/compaction-worker.js; tests run it through tsx.
import { workerData } from 'node:worker_threads'
import { compactFiles, type DataFiles } from './data-files.ts'

compactFiles(workerData as DataFiles)
