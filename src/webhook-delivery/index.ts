export { ATTEMPT_TIMEOUT_MS, createWebhookDelivery, DISABLE_AFTER, MAX_ATTEMPTS, MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_TEAM, MAX_LOGGED, MAX_UNDELIVERED, RETRY_DELAYS_SECONDS, RETRY_JOB, type DeliveryOptions } from './engine.ts'
export { advanceSettling } from './clock.ts'
export { deliveryData } from './data.ts'
