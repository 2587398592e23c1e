import { defineModule } from '@/lib/manifest';
import { emailJobs } from './jobs';

export const manifest = defineModule({ name: 'email', jobs: emailJobs });
