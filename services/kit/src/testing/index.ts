export { readRequestBody, readRequestBytes, sendJson } from './http';
export {
  createEvent,
  eventProducers,
  sampleMessageRecorded,
  sampleSubscriptionNotice,
  sampleUserRegistered,
} from './events';
export { type FakeMailbox, type ReceivedMail, startFakeMailbox } from './fake-mailbox';
export { createTestDatabase, dropTestDatabase, migrationsVersion } from './databases';
export { deleteTestBroker, freePort, publishRaw, testInfra, uniqueName } from './infra';
export { seenWithin, startTestReplica, startTestService, TEST_SECRETS, type TestService } from './service';
export { sandboxDecisionCall } from './sandbox-payment';
export { copyPristineCluster, pgliteDataDir } from './pglite';
