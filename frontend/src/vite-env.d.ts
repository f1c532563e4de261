/// <reference types="vite/client" />

/** The year of the build, set by vite.config.ts; the prerendered footer shows it. */
declare const __BUILD_YEAR__: number;

/** Days a stored contact message is kept: cdk.json's retentionDays, set by vite.config.ts. */
declare const __RETENTION_DAYS__: number;

/** The AWS region the stack deploys to: cdk.json's region, set by vite.config.ts. */
declare const __AWS_REGION__: string;

/** Minutes of the visitor limit's window: cdk.json's visitorLimit, set by vite.config.ts. */
declare const __VISITOR_WINDOW_MINUTES__: number;
declare const __SPAM_RETENTION_DAYS__: number;
