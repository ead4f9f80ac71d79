/** The API helpers live with the test stack, so every workspace's whole-product tests share them. */
export { callApi, MANY_USERS_ENV } from '@gpt/deploy/testing';
