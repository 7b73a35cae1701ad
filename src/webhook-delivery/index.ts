export { ATTEMPT_TIMEOUT_MS, createWebhookDelivery, DISABLE_AFTER, MAX_ATTEMPTS, MAX_IN_FLIGHT, RETRY_DELAYS_SECONDS, RETRY_JOB, type DeliveryOptions } from './engine.ts'
export { advanceSettling } from './clock.ts'
export { deliveryData } from './data.ts'
