export * from './openai-stub-server';
