export { createTestDatabase, deleteTestBroker, dropTestDatabase, testInfra, uniqueName } from './infra';
export { startTestService, type TestService } from './service';
