import { register } from 'node:module';
