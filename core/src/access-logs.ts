/**
 * Days the CloudFront and S3 access logs are kept. They hold visitors' IP addresses, so the
 * site's privacy statement quotes this number; both read it from here.
 */
export const ACCESS_LOG_RETENTION_DAYS = 90;
